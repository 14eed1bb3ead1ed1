import Foundation
import Testing

import struct Sensor.SplitMix64

@testable import Care

/// Random schedules and windows from a seeded generator; a failure names its seed.
@Suite struct SchedulePropertyTests {
    static let zones = [
        "America/Los_Angeles", "Europe/London", "UTC", "Australia/Lord_Howe", "America/Santiago", "Pacific/Apia",
        "Asia/Beirut", "America/Havana",
    ]
    static let seeds: [UInt64] = Array(1...60)

    struct Case {
        let calendar: Calendar
        let schedule: Schedule
        let a: Date, b: Date, c: Date
    }

    static func makeCase(seed: UInt64) throws -> Case {
        var random = SplitMix64(seed: seed)
        let calendar = Calendars.gregorian(zones.randomElement(using: &random)!)
        let origin = calendar.date(2020, 1, 1)
        func instant(within days: Double) -> Date {
            // Whole minutes, with some exactly at local midnight or on the hour.
            let minutes = Double(Int.random(in: 0..<Int(days * 1440), using: &random))
            let date = origin.addingTimeInterval(minutes * 60)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return calendar.startOfDay(for: date)
            case 1: return calendar.date(bySetting: .minute, value: 0, of: date) ?? date
            default: return date
            }
        }
        let intervals: [ScheduleInterval] = [
            .days(1), .days(2), .weeks(1), .months(1), .years(1), .hours(7), .hours(24), .minutes(90),
            ScheduleInterval(hours: 12, days: 1), .seconds(40_000),
        ]
        var elements: [ScheduleElement] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let start = instant(within: 700)
            let allDay = Bool.random(using: &random)
            let interval = intervals.filter { !allDay || $0.isWholeDays }.randomElement(using: &random)!
            let duration: ScheduleDuration =
                allDay ? .allDay : .seconds(Double(Int.random(in: 0...180_000, using: &random)))
            let end: Date? =
                Bool.random(using: &random)
                ? nil : start.addingTimeInterval(Double.random(in: 1...(400 * 86_400), using: &random).rounded())
            elements.append(
                try ScheduleElement(start: start, end: end, interval: interval, duration: duration, calendar: calendar))
        }
        let points = (0..<3).map { _ in instant(within: 900) }.sorted()
        return Case(
            calendar: calendar, schedule: try Schedule(composing: elements), a: points[0], b: points[1], c: points[2])
    }

    @Test(arguments: seeds)
    func matchesTheNaiveIterativeRule(seed: UInt64) throws {
        let test = try Self.makeCase(seed: seed)
        guard test.a < test.c else { return }
        let events = test.schedule.events(from: test.a, to: test.c, calendar: test.calendar)
        let reference = ReferenceSchedule.events(test.schedule, from: test.a, to: test.c, calendar: test.calendar)
        #expect(events == reference, "seed \(seed)")
    }

    @Test(arguments: seeds)
    func splittingTheWindowGivesTheSameEvents(seed: UInt64) throws {
        let test = try Self.makeCase(seed: seed)
        let whole = test.schedule.events(from: test.a, to: test.c, calendar: test.calendar)
        let first = test.schedule.events(from: test.a, to: test.b, calendar: test.calendar)
        let second = test.schedule.events(from: test.b, to: test.c, calendar: test.calendar)
        var seen = Set<Int>()
        let union = (first + second).filter { seen.insert($0.occurrence).inserted }
        #expect(union == whole, "seed \(seed)")
        // Indices are stable: an event seen in both halves has the same index and window in each.
        let secondByOccurrence = Dictionary(uniqueKeysWithValues: second.map { ($0.occurrence, $0) })
        for event in first {
            if let other = secondByOccurrence[event.occurrence] { #expect(other == event, "seed \(seed)") }
        }
    }

    @Test(arguments: seeds)
    func eventForOccurrenceIndexAgreesWithEvents(seed: UInt64) throws {
        let test = try Self.makeCase(seed: seed)
        let events = test.schedule.events(from: test.a, to: test.c, calendar: test.calendar)
        for event in events.prefix(50) {
            #expect(
                test.schedule.event(forOccurrenceIndex: event.occurrence, calendar: test.calendar) == event,
                "seed \(seed)")
        }
    }

    @Test(arguments: seeds)
    func elementEventAtOccurrenceAgreesWithElementEvents(seed: UInt64) throws {
        let test = try Self.makeCase(seed: seed)
        let element = test.schedule.elements[0]
        for event in element.events(from: test.a, to: test.c, calendar: test.calendar).prefix(50) {
            #expect(element.event(occurrence: event.occurrence, calendar: test.calendar) == event, "seed \(seed)")
        }
    }
}
