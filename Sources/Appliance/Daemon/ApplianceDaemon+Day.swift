import Foundation
import GPIO
import Sensor
import ServiceSupport

/// The day's state: the care store's status, the clock's trust, the sensor, the reminders.
extension ApplianceDaemon {
    /// Reads the day's status and the clock's trust again, and notices a new day.
    func refresh(at wall: Date) {
        refreshRequested = false
        lastRefresh = now
        let day = LocalDay(wall, calendar: parts.store.calendar)
        let previousDay = currentDay
        let previousStatus = dayStatus
        let previousTrust = trust
        do {
            dayStatus = try reader.status(at: wall)
            trust = ClockTrust.evaluate(
                now: wall, synchronizedSinceBoot: parts.clockSynchronized(),
                requireSync: settings.configuration.requireClockSync, newestOutcome: try reader.newestOutcome())
            if storeProblem != nil { log(.notice, "care store readable again") }
            storeProblem = nil
        } catch {
            if storeProblem == nil { log(.error, "cannot read the care store \(parts.store.path): \(error)") }
            storeProblem = error
            return
        }
        if trust != previousTrust || (!trustKnown && !trust.isTrusted) {
            log(
                trust.isTrusted ? .notice : .warning,
                trust.isTrusted ? "clock trusted: reminders on" : "\(trust): no reminders, no day counted as missed")
        }
        trustKnown = true
        if day != previousDay {
            currentDay = day
            if let previousDay, previousDay < day, previousStatus.isMeasurementDue {
                // Only a trusted clock may call a day missed: an unsynchronised one may simply
                // have jumped.
                if trust.isTrusted, previousTrust.isTrusted {
                    log(.warning, "the range-of-motion measurement of \(previousDay) was missed")
                }
            }
            log(.notice, "day \(day): \(dayStatus.summary)")
        } else if dayStatus != previousStatus {
            log(.notice, dayStatus.summary)
        }
    }

    func probeSensor() {
        lastSensorProbe = now
        var problem: MPU6050Error?
        do { try parts.sensor.check() } catch { problem = error }
        if problem == nil, sensorProblem != nil {
            log(.notice, "motion sensor answers on \(parts.sensor.location)")
        } else if let problem, sensorProblem == nil {
            log(
                .warning,
                "motion sensor not answering on \(parts.sensor.location): \(problem); retrying every \(settings.timing.sensorRetryNanoseconds / 1_000_000_000) s"
            )
        }
        sensorProblem = problem
    }

    /// Today's reminder instants, computed once a day.
    func reminderInstants(on wall: Date) -> [Date] {
        let day = LocalDay(wall, calendar: policy.calendar)
        if let cached = reminderDay, cached.day == day { return cached.instants }
        let instants = policy.reminders.instants(onDayOf: wall, calendar: policy.calendar)
        reminderDay = (day, instants)
        return instants
    }

    func soundReminderIfDue(at wall: Date) {
        guard dayStatus.isMeasurementDue, trust.isTrusted, storeProblem == nil,
            let reminder = policy.reminderToSound(
                at: wall, lastSounded: lastReminder, today: reminderInstants(on: wall))
        else { return }
        lastReminder = reminder
        play(.reminder)
        log(.info, "reminder \(TimeOfDay.of(reminder, in: policy.calendar)): a measurement is due")
    }
}
