import Appliance
import Care
import Foundation
import Testing

private let la = Zones.losAngeles

private func t(_ text: String) -> TimeOfDay { TimeOfDay(text)! }

@Suite("Time of day and quiet hours")
struct QuietHoursTests {
    @Test func parsesAndPrintsTimes() {
        #expect(TimeOfDay("9:05")?.description == "09:05")
        #expect(TimeOfDay("23:59")?.minutes == 1439)
        for bad in ["24:00", "12:60", "12", "12:5", "-1:00", "ab:cd", "", "12:00:00", "１２:00"] {
            #expect(TimeOfDay(bad) == nil, "\(bad)")
        }
    }

    @Test func windowAcrossMidnightIsTheComplementOfTheDaytimeWindow() {
        let night = QuietHours(start: t("21:00"), end: t("08:00"))
        let day = QuietHours(start: t("08:00"), end: t("21:00"))
        #expect(night.crossesMidnight && !day.crossesMidnight)
        for minute in 0..<1440 {
            let time = TimeOfDay(hour: minute / 60, minute: minute % 60)
            #expect(night.contains(time) != day.contains(time), "\(time)")
        }
        #expect(night.contains(t("21:00")) && night.contains(t("00:00")) && night.contains(t("07:59")))
        #expect(!night.contains(t("08:00")) && !night.contains(t("20:59")))
    }

    @Test func everyWindowHasItsLengthInMinutes() {
        // Starts and ends on a 100-minute grid: the window holds exactly the minutes from start
        // up to (not including) end, wrapping at midnight.
        for start in stride(from: 0, to: 1440, by: 100) {
            for end in stride(from: 0, to: 1440, by: 100) where end != start {
                let window = QuietHours(
                    start: TimeOfDay(hour: start / 60, minute: start % 60),
                    end: TimeOfDay(hour: end / 60, minute: end % 60))
                let inside = (0..<1440).filter { window.contains(TimeOfDay(hour: $0 / 60, minute: $0 % 60)) }.count
                #expect(inside == (end - start + 1440) % 1440)
            }
        }
    }

    @Test func readsLocalWallTimeOnDSTDays() {
        let night = QuietHours(start: t("01:00"), end: t("03:00"))
        // 2026-03-08: 01:59 PST then 03:00 PDT; the window is one hour long that night.
        #expect(night.contains(Zones.instant("2026-03-08T09:59:00Z"), in: la))  // 01:59 PST
        #expect(!night.contains(Zones.instant("2026-03-08T10:00:00Z"), in: la))  // 03:00 PDT
        // 2026-11-01: 01:00-01:59 happens twice; both are inside.
        #expect(night.contains(Zones.instant("2026-11-01T08:30:00Z"), in: la))  // 01:30 PDT
        #expect(night.contains(Zones.instant("2026-11-01T09:30:00Z"), in: la))  // 01:30 PST
    }
}

@Suite("Reminder instants")
struct ReminderInstantTests {
    @Test func standardDayHasSixReminders() {
        let instants = ReminderTimes.standard.instants(onDayOf: la.local(2026, 6, 7, 15), calendar: la)
        #expect(instants == [9, 11, 13, 15, 17, 19].map { la.local(2026, 6, 7, $0) })
    }

    @Test func skippedTimeSoundsWhenClocksJump() {
        // 02:30 does not exist on 2026-03-08 in Los Angeles: the clocks jump from 02:00 PST to
        // 03:00 PDT (10:00Z), the first instant past it.
        #expect(
            la.firstInstant(atOrAfter: t("02:30"), onDayOf: la.local(2026, 3, 8, 12))
                == Zones.instant("2026-03-08T10:00:00Z"))
        #expect(
            la.firstInstant(atOrAfter: t("02:00"), onDayOf: la.local(2026, 3, 8, 12))
                == Zones.instant("2026-03-08T10:00:00Z"))
        #expect(
            la.firstInstant(atOrAfter: t("03:00"), onDayOf: la.local(2026, 3, 8, 12))
                == Zones.instant("2026-03-08T10:00:00Z"))
        #expect(
            la.firstInstant(atOrAfter: t("01:59"), onDayOf: la.local(2026, 3, 8, 12))
                == Zones.instant("2026-03-08T09:59:00Z"))
    }

    @Test func repeatedTimeSoundsOnItsFirstOccurrence() {
        // 01:30 happens at 08:30Z (PDT) and again at 09:30Z (PST) on 2026-11-01.
        #expect(
            la.firstInstant(atOrAfter: t("01:30"), onDayOf: la.local(2026, 11, 1, 12))
                == Zones.instant("2026-11-01T08:30:00Z"))
        #expect(
            la.firstInstant(atOrAfter: t("02:00"), onDayOf: la.local(2026, 11, 1, 12))
                == Zones.instant("2026-11-01T10:00:00Z"))
    }

    @Test func dstDaysKeepOrderAndDropCollisions() {
        let halfHourly = ReminderTimes(first: t("01:00"), intervalMinutes: 30, last: t("03:30"))
        let spring = halfHourly.instants(onDayOf: la.local(2026, 3, 8), calendar: la)
        // 02:00, 02:30 and 03:00 all fall on the jump: one reminder there.
        #expect(
            spring
                == ["2026-03-08T09:00:00Z", "2026-03-08T09:30:00Z", "2026-03-08T10:00:00Z", "2026-03-08T10:30:00Z"].map(
                    Zones.instant))
        let autumn = halfHourly.instants(onDayOf: la.local(2026, 11, 1), calendar: la)
        #expect(
            autumn
                == [
                    "2026-11-01T08:00:00Z", "2026-11-01T08:30:00Z", "2026-11-01T10:00:00Z", "2026-11-01T10:30:00Z",
                    "2026-11-01T11:00:00Z", "2026-11-01T11:30:00Z",
                ].map(Zones.instant))
    }

    @Test func everyZoneAndDayKeepsRemindersOnTheirDayAndInOrder() {
        // Property over zones with odd transitions (30-minute DST, southern hemisphere, none),
        // every day of the months they change in: instants are strictly increasing, fall on the
        // day asked for, and none is lost but to a skipped hour.
        let reminders = ReminderTimes(first: t("00:00"), intervalMinutes: 60, last: t("23:00"))
        for identifier in [
            "America/Los_Angeles", "Europe/Berlin", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata", "UTC",
        ] {
            let calendar = Zones.calendar(identifier)
            for month in [3, 4, 9, 10, 11] {
                for dayOfMonth in 1...30 {
                    let day = calendar.local(2026, month, dayOfMonth, 12)
                    let instants = reminders.instants(onDayOf: day, calendar: calendar)
                    #expect(zip(instants, instants.dropFirst()).allSatisfy { $0 < $1 }, "\(identifier) \(day)")
                    #expect(instants.allSatisfy { calendar.isDate($0, inSameDayAs: day) }, "\(identifier) \(day)")
                    #expect((23...24).contains(instants.count), "\(identifier) \(day): \(instants.count)")
                }
            }
        }
    }
}

@Suite("Reminder policy")
struct ReminderPolicyTests {
    let policy = ReminderPolicy(
        reminders: .standard, quietHours: QuietHours(start: t("21:00"), end: t("08:00")), calendar: la)

    @Test func soundsOnceAtEachReminderTime() {
        #expect(policy.reminderToSound(at: la.local(2026, 6, 7, 8, 59, 59), lastSounded: nil) == nil)
        #expect(policy.reminderToSound(at: la.local(2026, 6, 7, 9), lastSounded: nil) == la.local(2026, 6, 7, 9))
        #expect(policy.reminderToSound(at: la.local(2026, 6, 7, 9, 0, 1), lastSounded: la.local(2026, 6, 7, 9)) == nil)
        #expect(
            policy.reminderToSound(at: la.local(2026, 6, 7, 11), lastSounded: la.local(2026, 6, 7, 9))
                == la.local(2026, 6, 7, 11))
    }

    @Test func missedReminderSoundsWithinTheGraceOnly() {
        #expect(policy.reminderToSound(at: la.local(2026, 6, 7, 9, 10), lastSounded: nil) == la.local(2026, 6, 7, 9))
        #expect(policy.reminderToSound(at: la.local(2026, 6, 7, 9, 10, 1), lastSounded: nil) == nil)
    }

    @Test func clockSteppedBackDoesNotRepeatAReminder() {
        #expect(policy.reminderToSound(at: la.local(2026, 6, 7, 9, 5), lastSounded: la.local(2026, 6, 7, 11)) == nil)
    }

    @Test func neverInsideQuietHours() {
        let late = ReminderPolicy(
            reminders: ReminderTimes(first: t("19:00"), intervalMinutes: 60, last: t("23:00")),
            quietHours: QuietHours(start: t("21:00"), end: t("08:00")), calendar: la)
        #expect(late.reminderToSound(at: la.local(2026, 6, 7, 20), lastSounded: nil) == la.local(2026, 6, 7, 20))
        #expect(late.reminderToSound(at: la.local(2026, 6, 7, 21), lastSounded: nil) == nil)
        #expect(late.reminderToSound(at: la.local(2026, 6, 7, 22, 5), lastSounded: nil) == nil)
        // A reminder just before quiet hours, noticed after they began, stays silent too.
        let edge = ReminderPolicy(
            reminders: ReminderTimes(first: t("20:55"), intervalMinutes: 60, last: t("20:55")),
            quietHours: QuietHours(start: t("21:00"), end: t("08:00")), calendar: la)
        #expect(edge.reminderToSound(at: la.local(2026, 6, 7, 21, 1), lastSounded: nil) == nil)
    }

    @Test func minuteByMinuteDaysSoundEachAudibleReminderOnce() {
        // Walk whole days, DST days included, waking every minute:
        // the reminders that sound are exactly the day's instants outside quiet hours.
        let reminders = ReminderTimes(first: t("00:30"), intervalMinutes: 90, last: t("23:30"))
        let quiet = QuietHours(start: t("22:00"), end: t("06:00"))
        let walker = ReminderPolicy(reminders: reminders, quietHours: quiet, calendar: la)
        for day in [la.local(2026, 3, 8), la.local(2026, 6, 7), la.local(2026, 11, 1)] {
            let end = la.date(byAdding: .day, value: 1, to: day)!
            var now = day
            var last: Date?
            var sounded: [Date] = []
            while now < end {
                if let reminder = walker.reminderToSound(at: now, lastSounded: last) {
                    sounded.append(reminder)
                    last = reminder
                }
                now += 60
            }
            let expected = reminders.instants(onDayOf: day, calendar: la).filter { !quiet.contains($0, in: la) }
            #expect(sounded == expected, "\(day)")
            #expect(!sounded.isEmpty)
        }
    }
}

@Suite("Clock trust and day status")
struct ClockTrustAndDayStatusTests {
    let now = Zones.instant("2026-06-07T16:00:00Z")

    @Test func trustNeedsSyncAndAClockNotBehindTheStore() {
        #expect(
            ClockTrust.evaluate(now: now, synchronizedSinceBoot: true, requireSync: true, newestOutcome: nil)
                == .trusted)
        #expect(
            ClockTrust.evaluate(now: now, synchronizedSinceBoot: false, requireSync: true, newestOutcome: nil)
                == .notSynchronized)
        #expect(
            ClockTrust.evaluate(now: now, synchronizedSinceBoot: false, requireSync: false, newestOutcome: nil)
                == .trusted)
        let later = now + 3600
        #expect(
            ClockTrust.evaluate(now: now, synchronizedSinceBoot: true, requireSync: true, newestOutcome: later)
                == .behindStoredResult(newest: later))
        #expect(
            ClockTrust.evaluate(now: now, synchronizedSinceBoot: false, requireSync: false, newestOutcome: later)
                == .behindStoredResult(newest: later))
        #expect(
            ClockTrust.evaluate(now: now, synchronizedSinceBoot: true, requireSync: true, newestOutcome: now - 1)
                == .trusted)
    }

    @Test func dayStatusGatesOnPlanAndOnboarding() throws {
        let task = try RecoverCarePlan.rangeOfMotionTask(
            start: la.local(2026, 6, 1), createdDate: la.local(2026, 6, 1), calendar: la)
        let schedule = try #require(task.schedule.event(forOccurrenceIndex: 6, calendar: la))
        let open = Event(task: task, scheduleEvent: schedule)
        var done = open
        done.outcome = Outcome(
            taskUUID: task.uuid, taskOccurrenceIndex: 6, values: [], createdDate: schedule.start,
            eventStart: schedule.start, eventEnd: schedule.end)

        #expect(
            CareDayStatus.evaluate(hasCarePlan: false, onboardingPending: false, rangeOfMotionEvents: [open])
                == .noCarePlan)
        #expect(
            CareDayStatus.evaluate(hasCarePlan: true, onboardingPending: true, rangeOfMotionEvents: [open])
                == .onboardingPending)
        #expect(
            CareDayStatus.evaluate(hasCarePlan: true, onboardingPending: false, rangeOfMotionEvents: [])
                == .nothingScheduled)
        #expect(
            CareDayStatus.evaluate(hasCarePlan: true, onboardingPending: false, rangeOfMotionEvents: [done])
                == .measurementDone)
        #expect(
            CareDayStatus.evaluate(hasCarePlan: true, onboardingPending: false, rangeOfMotionEvents: [open])
                == .measurementDue)
        #expect(
            CareDayStatus.evaluate(hasCarePlan: true, onboardingPending: false, rangeOfMotionEvents: [done, open])
                .isMeasurementDue)
    }

    @Test func localDayRollsOverAtLocalMidnight() {
        #expect(LocalDay(la.local(2026, 6, 7, 23, 59, 59), calendar: la) < LocalDay(la.local(2026, 6, 8), calendar: la))
        #expect(LocalDay(la.local(2026, 6, 7, 23, 59, 59), calendar: la).description == "2026-06-07")
        // The same instant is another day in another zone.
        #expect(LocalDay(Zones.instant("2026-06-08T03:00:00Z"), calendar: la).description == "2026-06-07")
        #expect(LocalDay(Zones.instant("2026-06-08T03:00:00Z"), calendar: Zones.utc).description == "2026-06-08")
    }
}
