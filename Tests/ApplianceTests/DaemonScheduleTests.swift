import Appliance
import CareStorage
import Foundation
import GPIO
import ServiceSupport
import Testing

/// The daemon on whole simulated days: reminders, quiet hours, gating, rollover, DST, clock trust.
@Suite("Daemon schedule")
struct DaemonScheduleTests {
    @Test func remindersSoundAtTheReminderTimesOfADueDay() throws {
        // Plan from 2026-06-02: 2026-06-08 is day 6, a daily range-of-motion day.
        let harness = try DaemonHarness(start: { $0.local(2026, 6, 8, 7) }, planStart: { $0.local(2026, 6, 2) })
        try harness.run(until: harness.local(2026, 6, 8, 21))
        let expected = [9, 11, 13, 15, 17, 19].map { harness.local(2026, 6, 8, $0) }
        #expect(harness.chimeStarts.count == expected.count)
        for (chime, reminder) in zip(harness.chimeStarts, expected) {
            // Within one poll of the reminder time.
            #expect(chime >= reminder && chime.timeIntervalSince(reminder) <= 5, "\(chime) for \(reminder)")
        }
        #expect(harness.output.messages.filter { $0.hasPrefix("reminder ") }.count == 6)
        #expect(harness.output.messages.contains("day 2026-06-08: range-of-motion measurement due today"))
        // The LED shows "due": it flashes.
        #expect(harness.chip.changes.filter { $0.line.name == "GPIO27" && $0.value }.count > 100)
    }

    @Test func quietHoursSilenceRemindersAcrossMidnight() throws {
        let harness = try DaemonHarness(start: { $0.local(2026, 6, 8, 18) }, planStart: { $0.local(2026, 6, 2) })
        harness.configuration.reminders = ReminderTimes(
            first: TimeOfDay(hour: 0), intervalMinutes: 60, last: TimeOfDay(hour: 23))
        harness.configuration.quietHours = QuietHours(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 8))
        // 2026-06-09 (day 7) is a weekly range-of-motion day too.
        try harness.run(until: harness.local(2026, 6, 9, 10, 30))
        let hours = harness.chimeStarts.map { harness.calendar.component(.hour, from: $0) }
        #expect(hours == [18, 19, 20, 8, 9, 10])
    }

    @Test func nothingButOnboardingUntilItIsDone() throws {
        let harness = try DaemonHarness(
            start: { $0.local(2026, 6, 8, 8, 30) }, planStart: { $0.local(2026, 6, 8) }, onboarded: false,
            presses: [ScriptedPress(atSeconds: 600)])
        var onboarded = false
        let onboardAt = harness.local(2026, 6, 8, 12)
        harness.onTurn = { now in
            if now >= onboardAt, !onboarded {
                onboarded = true
                try? harness.onboard(at: now)
            }
        }
        try harness.run(until: harness.local(2026, 6, 8, 14))
        // No reminders at 09:00 and 11:00; the press (08:40) started nothing; after onboarding
        // (seen at the next store refresh) the 13:00 reminder sounds.
        let chimeHours = harness.chimeStarts.map { harness.calendar.component(.hour, from: $0) }
        #expect(chimeHours == [8, 13])  // 8: the error chime for the refused press
        #expect(harness.measurements.started.isEmpty)
        #expect(
            harness.output.messages.contains(
                "no measurement: cannot record 'rangeOfMotionCheck' before onboarding is done: complete onboarding first"
            ))
        #expect(harness.output.messages.contains("range-of-motion measurement due today"))
        // The LED stayed dark while onboarding was pending.
        let firstLit = harness.chip.changes.first { $0.line.name == "GPIO27" && $0.value }
        let lit = try #require(firstLit)
        #expect(harness.start.addingTimeInterval(Double(lit.atNanoseconds) / 1e9) >= onboardAt)
    }

    @Test func noPlanMeansNoCues() throws {
        let harness = try DaemonHarness(start: { $0.local(2026, 6, 8, 8, 30) }, planStart: nil)
        try harness.run(until: harness.local(2026, 6, 8, 12))
        #expect(harness.chimeStarts.isEmpty)
        #expect(harness.output.states.first == .ready)
        #expect(harness.output.states.contains(.status("no care plan in the store (romdev init)")))
    }

    @Test func anIdleDaemonWakesOnlyForTheStoreRefresh() throws {
        // No plan: the LED is dark, no reminder, no watchdog; nothing but the store refresh
        // (every 600 s here) and the stop wakes the loop, not a fixed poll.
        let harness = try DaemonHarness(start: { $0.local(2026, 6, 8, 8, 30) }, planStart: nil)
        try harness.run(until: harness.local(2026, 6, 8, 11, 30))
        let refreshes = 3 * 3600 / 600
        #expect(harness.wakeCount <= refreshes + 1, "\(harness.wakeCount) wakeups")
    }

    @Test func dayRollsOverAtLocalMidnightAndAMissedDayIsLogged() throws {
        let harness = try DaemonHarness(start: { $0.local(2026, 6, 8, 22) }, planStart: { $0.local(2026, 6, 2) })
        try harness.run(until: harness.local(2026, 6, 9, 9, 30))
        #expect(harness.output.messages.contains("the range-of-motion measurement of 2026-06-08 was missed"))
        #expect(harness.output.messages.contains("day 2026-06-09: range-of-motion measurement due today"))
        #expect(harness.chimeStarts.map { harness.calendar.component(.hour, from: $0) } == [9])
        // 2026-06-10 (day 8) has no event: the LED goes dark at midnight.
        let next = try DaemonHarness(start: { $0.local(2026, 6, 9, 23, 59) }, planStart: { $0.local(2026, 6, 2) })
        try next.run(until: next.local(2026, 6, 10, 10))
        #expect(next.output.messages.contains("day 2026-06-10: no measurement today"))
        #expect(next.chimeStarts.isEmpty)
        let lastLED = try #require(next.chip.changes.last { $0.line.name == "GPIO27" })
        #expect(!lastLED.value)
    }

    @Test func dstDaysChimeOnceAtEachReminder() throws {
        // Clocks go forward at 02:00 on 2026-03-08 and back at 02:00 on 2026-11-01 in Los Angeles.
        let reminders = ReminderTimes(
            first: TimeOfDay(hour: 1), intervalMinutes: 30, last: TimeOfDay(hour: 3, minute: 30))
        let spring = try DaemonHarness(start: { $0.local(2026, 3, 8, 0, 30) }, planStart: { $0.local(2026, 3, 5) })
        spring.configuration.reminders = reminders
        spring.configuration.quietHours = nil
        try spring.run(until: spring.local(2026, 3, 8, 5))
        #expect(spring.chimeStarts.count == 4)  // 01:00, 01:30, 03:00 (02:00-03:00 skipped), 03:30
        let springExpected = [
            "2026-03-08T09:00:00Z", "2026-03-08T09:30:00Z", "2026-03-08T10:00:00Z", "2026-03-08T10:30:00Z",
        ].map(Zones.instant)
        for (chime, reminder) in zip(spring.chimeStarts, springExpected) {
            #expect(chime >= reminder && chime.timeIntervalSince(reminder) <= 5)
        }

        // Plan from 2026-10-04: 2026-11-01 is day 28, the last weekly event.
        let autumn = try DaemonHarness(start: { $0.local(2026, 11, 1, 0, 30) }, planStart: { $0.local(2026, 10, 4) })
        autumn.configuration.reminders = reminders
        autumn.configuration.quietHours = nil
        try autumn.run(until: Zones.instant("2026-11-01T13:00:00Z"))
        // 01:00 and 01:30 once each (the repeated hour does not chime again), then 02:00-03:30.
        #expect(autumn.chimeStarts.count == 6)
        let autumnExpected = [
            "2026-11-01T08:00:00Z", "2026-11-01T08:30:00Z", "2026-11-01T10:00:00Z", "2026-11-01T10:30:00Z",
            "2026-11-01T11:00:00Z", "2026-11-01T11:30:00Z",
        ].map(Zones.instant)
        for (chime, reminder) in zip(autumn.chimeStarts, autumnExpected) {
            #expect(chime >= reminder && chime.timeIntervalSince(reminder) <= 5)
        }
    }

    @Test func untrustedClockNeitherChimesNorCallsADayMissed() throws {
        let harness = try DaemonHarness(start: { $0.local(2026, 6, 8, 8) }, planStart: { $0.local(2026, 6, 2) })
        harness.synchronized = false
        let syncAt = harness.local(2026, 6, 9, 10, 30)
        harness.onTurn = { now in if now >= syncAt { harness.synchronized = true } }
        try harness.run(until: harness.local(2026, 6, 9, 13, 30))
        // Nothing on 06-08, no "missed" at midnight; once synchronised (seen at the next store
        // refresh) the 11:00 and 13:00 reminders of 06-09 sound, and no stale one.
        #expect(harness.chimeStarts.map { harness.calendar.component(.hour, from: $0) } == [11, 13])
        #expect(harness.output.messages(containing: "was missed").isEmpty)
        #expect(
            harness.output.messages.contains(
                "clock not synchronised since boot: no reminders, no day counted as missed"))
        #expect(harness.output.messages.contains("clock trusted: reminders on"))
        #expect(
            harness.output.states.contains {
                if case .status(let s) = $0 { s.hasSuffix("reminders paused") } else { false }
            })
        // The LED still shows "due": the patient may measure.
        #expect(harness.chip.changes.contains { $0.line.name == "GPIO27" && $0.value })
    }

    @Test func clockBehindTheNewestResultIsUntrusted() throws {
        let harness = try DaemonHarness(start: { $0.local(2026, 6, 8, 8) }, planStart: { $0.local(2026, 6, 2) })
        // A check-in recorded "tomorrow": this clock must be behind.
        let day = harness.calendar.dayInterval(containing: harness.local(2026, 6, 9))
        let checkin = try harness.store.fetchEvents(taskID: "checkin", from: day.start, to: day.end)[0]
        try harness.store.addOutcome(
            NewOutcome(taskUUID: checkin.task.uuid, occurrence: checkin.scheduleEvent.occurrence, values: []),
            now: harness.local(2026, 6, 9, 8, 30))
        try harness.run(until: harness.local(2026, 6, 8, 12))
        #expect(harness.chimeStarts.isEmpty)
        #expect(
            harness.output.messages.filter { $0.hasPrefix("clock is earlier than the newest stored result") }.count == 1
        )
    }

    @Test func clockStepsNeitherBurstNorRepeatReminders() throws {
        let harness = try DaemonHarness(start: { $0.local(2026, 6, 8, 8, 55) }, planStart: { $0.local(2026, 6, 2) })
        var stepped = [false, false]
        harness.onTurn = { now in
            // At 09:30 the clock moves 4 h forward (13:30): the 11:00 and 13:00 reminders passed
            // unheard and are not played in a burst.
            if !stepped[0], now >= harness.local(2026, 6, 8, 9, 30) {
                stepped[0] = true
                harness.wallClock.step(by: 4 * 3600)
            }
            // At 15:05 it moves 3 h back (12:05): 13:00 and 15:00 do not sound (again).
            if !stepped[1], now >= harness.local(2026, 6, 8, 15, 5) {
                stepped[1] = true
                harness.wallClock.step(by: -3 * 3600)
            }
        }
        try harness.run(until: harness.local(2026, 6, 8, 17, 30))
        #expect(
            harness.output.messages.filter { $0.hasPrefix("reminder ") } == [
                "reminder 09:00: a measurement is due", "reminder 15:00: a measurement is due",
                "reminder 17:00: a measurement is due",
            ])
    }
}

@Suite("Care store reads of the daemon")
struct CareStoreReadsTests {
    @Test func newestOutcomeDateIgnoresDeletedOutcomes() throws {
        let harness = try DaemonHarness(start: { $0.local(2026, 6, 8, 8) }, planStart: { $0.local(2026, 6, 2) })
        let onboarded = harness.local(2026, 6, 2).addingTimeInterval(60)
        #expect(try harness.store.newestOutcomeDate() == onboarded)
        let week = DateInterval(start: harness.local(2026, 6, 3), end: harness.local(2026, 6, 6))
        let checkins = try harness.store.fetchEvents(taskID: "checkin", from: week.start, to: week.end)
        for (index, event) in checkins.enumerated() {
            try harness.store.addOutcome(
                NewOutcome(taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence, values: []),
                now: event.scheduleEvent.start.addingTimeInterval(Double(index) * 60))
        }
        let last = try #require(checkins.last)
        #expect(
            try harness.store.newestOutcomeDate()
                == last.scheduleEvent.start.addingTimeInterval(Double(checkins.count - 1) * 60))
        try harness.store.deleteOutcome(
            taskID: "checkin", occurrence: last.scheduleEvent.occurrence, now: harness.local(2026, 6, 7))
        let previous = checkins[checkins.count - 2]
        #expect(
            try harness.store.newestOutcomeDate()
                == previous.scheduleEvent.start.addingTimeInterval(Double(checkins.count - 2) * 60))
    }
}
