import Foundation
import GPIO
import LinuxSystem

/// The loop's one wait: until a source has input or the next thing falls due.
extension ApplianceDaemon {
    /// The earliest time (monotonic) at which the loop has something to do without any input:
    /// the panel's next cue or debounce step, the end of a transient LED pattern, the next look
    /// at a running session, the watchdog ping, the store refresh, the sensor retry, the next
    /// reminder, the day's end, or a control client's deadline.
    func nextDeadline(at wall: Date) -> UInt64 {
        let current = now
        let timing = settings.timing
        var deadlines: [UInt64?] = [
            parts.panel?.nextDeadlineNanoseconds,
            transientPattern?.until,
            lastRefresh.map { $0 &+ timing.storeRefreshNanoseconds },
            lastWatchdogPing.flatMap { last in settings.watchdog.map { $0.nextPingDue(afterPingAtNanoseconds: last) } },
            parts.requests?.nanosecondsUntilDeadline.map { current &+ $0 },
        ]
        if isBusy {
            deadlines.append(current &+ timing.busyPollNanoseconds)
        } else if sensorProblem != nil {
            deadlines.append(lastSensorProbe &+ timing.sensorRetryNanoseconds)
        }
        // Wall-clock times become monotonic ones now; a clock step in between is seen at the
        // next wake (at the latest the store refresh), which computes them afresh.
        func monotonic(_ date: Date) -> UInt64 {
            let seconds = max(0, date.timeIntervalSince(wall))
            return current &+ UInt64((seconds * 1e9).rounded(.up))
        }
        if let dayEnd = parts.store.calendar.dateInterval(of: .day, for: wall)?.end {
            deadlines.append(monotonic(dayEnd))
        }
        if !isBusy, dayStatus.isMeasurementDue, trust.isTrusted,
            let reminder = reminderInstants(on: wall).first(where: { $0 > wall })
        {
            deadlines.append(monotonic(reminder))
        }
        return deadlines.compactMap { $0 }.min() ?? current &+ timing.storeRefreshNanoseconds
    }

    /// Waits in one `poll(2)` on the button, the control socket, the signals and `alarm` set to
    /// `deadline`. Returns when any is ready; what is ready is found by serving them all.
    func wait(untilNanoseconds deadline: UInt64, alarm: any ClockAlarm) {
        var descriptors = [PollDescriptor(alarm.descriptor, .readable)]
        if let signals = parts.signalDescriptor { descriptors.append(PollDescriptor(signals, .readable)) }
        descriptors += parts.panel?.pollDescriptors ?? []
        descriptors += parts.requests?.pollDescriptors ?? []
        do {
            try alarm.set(atNanoseconds: deadline)
            try parts.monotonic.waitUntilReady(&descriptors)
            wakeCount += 1
        } catch {
            log(.error, "waiting for the button, the control socket and the timer failed: \(error)")
            // Keep a pace rather than spin on a failing wait.
            parts.monotonic.sleep(untilNanoseconds: now + settings.timing.busyPollNanoseconds)
        }
    }
}
