import Foundation
import Testing

import struct Sensor.SplitMix64

@testable import Care

/// Random version chains with increasing effective dates, from a seeded generator.
@Suite struct TaskVersionChainPropertyTests {
    static let seeds: [UInt64] = Array(1...40)

    struct Case {
        let calendar: Calendar
        let chain: TaskVersionChain
        let a: Date, b: Date, c: Date
    }

    static func makeCase(seed: UInt64) throws -> Case {
        var random = SplitMix64(seed: seed)
        let calendar = Calendars.gregorian(["America/Los_Angeles", "Europe/London"].randomElement(using: &random)!)
        let origin = calendar.date(2021, 1, 1)
        func instant(_ days: Int) -> Date {
            origin.addingTimeInterval(Double(Int.random(in: 0..<(days * 24), using: &random)) * 3600)
        }
        var versions: [CareTask] = []
        var effective = instant(30)
        for n in 1...Int.random(in: 1...4, using: &random) {
            let allDay = Bool.random(using: &random)
            let element = try ScheduleElement(
                start: instant(60), interval: [.days(1), .days(2), .weeks(1)].randomElement(using: &random)!,
                duration: allDay ? .allDay : .hours(Double(Int.random(in: 1...30, using: &random))), calendar: calendar)
            versions.append(
                Fixtures.task(
                    n, schedule: try Schedule(composing: [element]), effective: effective, previous: n > 1 ? n - 1 : nil
                ))
            effective = effective.addingTimeInterval(Double(Int.random(in: 0...(20 * 24), using: &random)) * 3600)
        }
        let points = (0..<3).map { _ in instant(120) }.sorted()
        return Case(calendar: calendar, chain: try TaskVersionChain(versions), a: points[0], b: points[1], c: points[2])
    }

    struct Key: Hashable {
        let version: UUID
        let occurrence: Int
    }

    @Test(arguments: seeds)
    func splittingTheWindowGivesTheSameEvents(seed: UInt64) throws {
        let test = try Self.makeCase(seed: seed)
        let whole = test.chain.events(from: test.a, to: test.c, calendar: test.calendar)
        let halves =
            test.chain.events(from: test.a, to: test.b, calendar: test.calendar)
            + test.chain.events(from: test.b, to: test.c, calendar: test.calendar)
        var seen = Set<Key>()
        let union = halves.filter {
            seen.insert(Key(version: $0.task.uuid, occurrence: $0.scheduleEvent.occurrence)).inserted
        }
        #expect(
            Set(union.map { Key(version: $0.task.uuid, occurrence: $0.scheduleEvent.occurrence) })
                == Set(whole.map { Key(version: $0.task.uuid, occurrence: $0.scheduleEvent.occurrence) }),
            "seed \(seed)")
    }

    @Test(arguments: seeds)
    func everyEventIsOwnedByTheVersionInEffectAtItsStartOrOverlapsIt(seed: UInt64) throws {
        let test = try Self.makeCase(seed: seed)
        let versions = test.chain.versions
        for event in test.chain.events(from: test.a, to: test.c, calendar: test.calendar) {
            let index = try #require(versions.firstIndex { $0.uuid == event.task.uuid })
            // The next version takes over at its effective date: no event of this one starts there or later.
            if index + 1 < versions.count {
                #expect(event.scheduleEvent.start < versions[index + 1].effectiveDate, "seed \(seed)")
            }
            // An event from before the version's effective date still reaches it.
            #expect(event.scheduleEvent.end >= event.task.effectiveDate, "seed \(seed)")
            // Outcomes may be recorded for every event shown, unless it lies where a later version took effect.
            _ = try test.chain.eventForNewOutcome(
                taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence, existingOutcomes: [],
                calendar: test.calendar)
        }
    }
}
