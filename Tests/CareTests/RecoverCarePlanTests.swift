import Foundation
import Testing

import struct Sensor.SplitMix64

@testable import Care

@Suite struct RecoverCarePlanTests {
    let la = Calendars.losAngeles

    func romDays(start: Date, calendar: Calendar) throws -> [Int] {
        let task = try RecoverCarePlan.rangeOfMotionTask(start: start, createdDate: start, calendar: calendar)
        let events = task.schedule.events(
            from: start.addingTimeInterval(-86_400 * 10), to: start.addingTimeInterval(86_400 * 400), calendar: calendar
        )
        return events.map { calendar.daysBetween(start, $0.start) }
    }

    @Test func tasksHaveTheRecoverIDsTitlesAndAdherence() throws {
        let tasks = try RecoverCarePlan.tasks(
            start: la.date(2021, 6, 1, 10, 15), createdDate: la.date(2021, 6, 1, 10, 15), calendar: la)
        #expect(tasks.map(\.id) == ["onboarding", "checkin", "rangeOfMotionCheck"])
        #expect(tasks.map(\.title) == ["Onboard", "Check In", "Range Of Motion"])
        #expect(tasks.map(\.impactsAdherence) == [false, true, true])
        #expect(tasks[0].instructions == "You'll need to agree to some terms and conditions before we get started!")
        #expect(tasks.map(\.effectiveDate) == [la.date(2021, 6, 1), la.date(2021, 6, 1, 8), la.date(2021, 6, 1)])
    }

    @Test func onboardingIsAllDayEveryDay() throws {
        let task = try RecoverCarePlan.onboardingTask(
            start: la.date(2021, 6, 1, 10), createdDate: la.date(2021, 6, 1), calendar: la)
        let events = task.schedule.events(from: la.date(2021, 6, 1), to: la.date(2021, 6, 4), calendar: la)
        #expect(
            events.map { la.parts($0.start) } == [
                [2021, 6, 1, 0, 0, 0], [2021, 6, 2, 0, 0, 0], [2021, 6, 3, 0, 0, 0],
            ])
        #expect(events.allSatisfy { $0.element.duration == .allDay })
        #expect(task.schedule.endDate == nil)
    }

    @Test func checkinIsAt0800LocalForAnHourAcrossDST() throws {
        let task = try RecoverCarePlan.checkinTask(
            start: la.date(2021, 3, 10, 15), createdDate: la.date(2021, 3, 10), calendar: la)
        let events = task.schedule.events(from: la.date(2021, 3, 1), to: la.date(2021, 11, 10), calendar: la)
        #expect(events.count == 245)
        #expect(
            events.allSatisfy { la.parts($0.start)[3...5] == [8, 0, 0] && $0.end.timeIntervalSince($0.start) == 3600 })
        #expect(events.first.map { la.parts($0.start) } == [2021, 3, 10, 8, 0, 0])
    }

    @Test func rangeOfMotionIsDailyForAWeekThenWeeklyForTheMonth() throws {
        // June has 30 days, so day 28 (June 29) is inside the month.
        #expect(try romDays(start: la.date(2021, 6, 1, 10), calendar: la) == [0, 1, 2, 3, 4, 5, 6, 7, 14, 21, 28])
        // February 2021 has 28 days: day 28 is March 1, the (exclusive) end.
        #expect(try romDays(start: la.date(2021, 2, 1, 10), calendar: la) == [0, 1, 2, 3, 4, 5, 6, 7, 14, 21])
    }

    @Test func rangeOfMotionDay7HasOneEventFromTheWeeklyElement() throws {
        let start = la.date(2021, 6, 1, 10)
        let task = try RecoverCarePlan.rangeOfMotionTask(start: start, createdDate: start, calendar: la)
        let day7 = la.dayInterval(containing: la.date(2021, 6, 8, 12))
        let events = task.schedule.events(from: day7.start, to: day7.end, calendar: la)
        #expect(events.count == 1)
        #expect(events.first?.occurrence == 7)
        #expect(events.first?.element.interval == .weeks(1))
    }

    @Test(arguments: ["America/Los_Angeles", "Europe/London", "America/Santiago"])
    func noDayEverHasTwoRangeOfMotionEvents(zone: String) throws {
        let calendar = Calendars.gregorian(zone)
        var random = SplitMix64(seed: 0x524F4D)
        for _ in 0..<150 {
            let start = calendar.date(2020, 1, 1).addingTimeInterval(
                Double(Int.random(in: 0..<(10 * 365 * 1440), using: &random)) * 60)
            let days = try romDays(start: start, calendar: calendar)
            let monthLength = calendar.range(of: .day, in: .month, for: start)!.count
            let expected =
                Array(0...7) + [14, 21]
                + (calendar.date(byAdding: .month, value: 1, to: calendar.startOfDay(for: start))!
                    > calendar.date(byAdding: .day, value: 28, to: calendar.startOfDay(for: start))! ? [28] : [])
            #expect(days == expected, "start \(start) in \(zone), month of \(monthLength) days")
            #expect(Set(days).count == days.count, "start \(start) in \(zone)")
        }
    }

    @Test func rangeOfMotionValuesAreDegreesWithTheRangeFirst() {
        let values = RecoverCarePlan.rangeOfMotionValues(
            startDegrees: 0, finishDegrees: 2, minimumDegrees: 0, maximumDegrees: 85, createdDate: la.date(2021, 6, 1))
        #expect(values.map(\.kind) == ["range", "start", "finish", "minimum", "maximum"])
        #expect(values.allSatisfy { $0.units == "deg" && $0.typeName == "double" })
        #expect(values.first?.numberValue == 85)
    }

    @Test func rangeOfMotionValuesAreStoredToHundredthsWithTheRangeFromTheStoredExtremes() {
        let values = RecoverCarePlan.rangeOfMotionValues(
            startDegrees: -7.951386703658792e-16, finishDegrees: 0.11038889944964153,
            minimumDegrees: -0.0032997603295579206, maximumDegrees: 65.95318654745586, createdDate: la.date(2021, 6, 1))
        #expect(values.map(\.numberValue) == [65.95, 0, 0.11, 0, 65.95])
        // No negative zero: it would print as "-0.0".
        #expect(values.allSatisfy { ($0.numberValue ?? 1).sign == .plus || ($0.numberValue ?? 0) != 0 })
        let odd = RecoverCarePlan.rangeOfMotionValues(
            startDegrees: 0, finishDegrees: 0, minimumDegrees: 1.004, maximumDegrees: 71.016,
            createdDate: la.date(2021, 6, 1))
        // 71.02 − 1.00: the range matches the stored extremes, not the unrounded 70.012.
        #expect(odd.first?.numberValue == 70.02)
    }

    @Test func kneeAnglesFollowTheInclinationsToHundredthsWithTheArcFromTheStoredAngles() {
        let values = RecoverCarePlan.rangeOfMotionValues(
            startDegrees: 0, finishDegrees: 1, minimumDegrees: -35.004, maximumDegrees: 95.3,
            knee: RecoverCarePlan.KneeAngles(extensionDegrees: -5.304, flexionDegrees: 125.0049),
            limb: "right", measurementProtocol: "arc", flags: ["not-seated"], createdDate: la.date(2021, 6, 1))
        #expect(
            values.map(\.kind) == [
                "range", "start", "finish", "minimum", "maximum", "knee_extension", "knee_flexion", "knee_arc", "limb",
                "protocol", "flag",
            ])
        // Hyperextension stays negative, flexion past 90° stays past it; arc = flexion − extension as stored.
        #expect(values[5...7].map(\.numberValue) == [-5.3, 125, 130.3])
        #expect(values[5...7].allSatisfy { $0.units == "deg" && $0.typeName == "double" })
        #expect(values.suffix(3).map(\.value) == [.text("right"), .text("arc"), .text("not-seated")])
    }

    @Test func rangeOfMotionValuesEndWithTheLimbAndOneValuePerFlag() {
        let values = RecoverCarePlan.rangeOfMotionValues(
            startDegrees: 0, finishDegrees: 2, minimumDegrees: 0, maximumDegrees: 85, limb: "left",
            flags: ["moved-at-start", "too-short"], createdDate: la.date(2021, 6, 1))
        #expect(values.dropFirst(5).map(\.kind) == ["limb", "flag", "flag"])
        #expect(values.dropFirst(5).map(\.value) == [.text("left"), .text("moved-at-start"), .text("too-short")])
        #expect(values.dropFirst(5).allSatisfy { $0.units == nil })
    }
}
