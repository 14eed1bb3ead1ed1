import Care
import CareStorage
import Foundation
import Synchronization
import Testing

@Suite struct CareStoreOutcomeTests {
    let fixture: StoreFixture
    let task: CareTask
    var store: CareStore { fixture.store }

    init() throws {
        fixture = try StoreFixture()
        task = try fixture.store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1)))
    }

    // MARK: - Round trips

    @Test func everyValueTypeRoundTrips() throws {
        let created = Date(timeIntervalSince1970: 1_772_400_000.125)
        let values = [
            OutcomeValue(.integer(Int.max), kind: "max", createdDate: created),
            OutcomeValue(.integer(-3), createdDate: created),
            OutcomeValue(.double(0.1), kind: "range", units: "deg", createdDate: created),
            OutcomeValue(.double(85), kind: "whole", units: "deg", createdDate: created),
            OutcomeValue(.boolean(true), kind: "consent", createdDate: created),
            OutcomeValue(.boolean(false), createdDate: created.addingTimeInterval(1)),
            OutcomeValue(.text("Ça va — 😀"), kind: "note", units: "", createdDate: created),
            OutcomeValue(.text(""), createdDate: created),
            OutcomeValue(.date(fixture.date(2026, 3, 8, 2, 30)), kind: "consented", createdDate: created),
        ]
        let stored = try store.addOutcome(
            NewOutcome(taskUUID: task.uuid, occurrence: 0, values: values),
            now: fixture.date(2026, 3, 1, 9, 15))
        let fetched = try store.fetchOutcomes()
        #expect(fetched == [stored])
        #expect(fetched.first?.outcome.values == values)
        #expect(fetched.first?.taskID == "checkin")
    }

    @Test func anOutcomeWithoutValuesRoundTrips() throws {
        let stored = try store.addOutcome(
            NewOutcome(taskUUID: task.uuid, occurrence: 1, values: []), now: fixture.date(2026, 3, 2, 9))
        #expect(try store.fetchOutcomes() == [stored])
    }

    @Test func theEventWindowIsFrozenOnTheOutcome() throws {
        let stored = try store.addOutcome(
            NewOutcome(taskUUID: task.uuid, occurrence: 3, values: []), now: fixture.date(2026, 3, 9))
        #expect(stored.outcome.eventStart == fixture.date(2026, 3, 4, 9))
        #expect(stored.outcome.eventEnd == fixture.date(2026, 3, 4, 10))
        #expect(stored.outcome.createdDate == fixture.date(2026, 3, 9))
    }

    // MARK: - Refusals

    private func expectRefusal(_ outcome: NewOutcome, _ matches: (CareStoreError) -> Bool) throws {
        let before = try fixture.dump()
        #expect { try store.addOutcome(outcome, now: fixture.date(2026, 3, 10)) } throws: { error in
            guard let error = error as? CareStoreError else { return false }
            return matches(error)
        }
        #expect(try fixture.dump() == before)
    }

    @Test func refusesAnUnknownTaskVersion() throws {
        let uuid = UUID()
        try expectRefusal(NewOutcome(taskUUID: uuid, occurrence: 0, values: [])) {
            if case .unknownTaskVersion(uuid) = $0 { true } else { false }
        }
    }

    @Test(arguments: [-1, 10]) func refusesAnOccurrenceOutsideTheSchedule(occurrence: Int) throws {
        let finite = try store.addTask(
            CareTask(
                id: "week",
                schedule: try .dailyAtTime(
                    hour: 9, minutes: 0, start: fixture.date(2026, 3, 1),
                    end: fixture.date(2026, 3, 8), calendar: fixture.calendar),
                createdDate: fixture.date(2026, 3, 1)))
        try expectRefusal(NewOutcome(taskUUID: finite.uuid, occurrence: occurrence, values: [])) {
            if case .care(.occurrenceNotInSchedule(taskID: "week", occurrence: occurrence)) = $0 { true } else { false }
        }
    }

    @Test func refusesASecondOutcomeForOneEvent() throws {
        try store.addOutcome(
            NewOutcome(taskUUID: task.uuid, occurrence: 2, values: []), now: fixture.date(2026, 3, 3, 9))
        try expectRefusal(NewOutcome(taskUUID: task.uuid, occurrence: 2, values: [])) {
            if case .care(.duplicateOutcome(taskID: "checkin", occurrence: 2)) = $0 { true } else { false }
        }
    }

    @Test func refusesAnEventOwnedByALaterVersion() throws {
        var proposed = task
        proposed.effectiveDate = fixture.date(2026, 3, 5)
        try store.updateTask(proposed, now: fixture.date(2026, 3, 4))
        // Occurrence 5 of the first version (March 6, 09:00) lies after the new version took effect.
        try expectRefusal(NewOutcome(taskUUID: task.uuid, occurrence: 5, values: [])) {
            if case .care(.occurrenceShadowedByLaterVersion(taskID: "checkin", occurrence: 5, _)) = $0 {
                true
            } else {
                false
            }
        }
    }

    @Test func refusesADeletedTask() throws {
        try store.deleteTask(id: "checkin", now: fixture.date(2026, 3, 4))
        try expectRefusal(NewOutcome(taskUUID: task.uuid, occurrence: 1, values: [])) {
            if case .care(.taskDeleted("checkin")) = $0 { true } else { false }
        }
    }

    @Test func refusesANonFiniteDouble() throws {
        let values = [
            OutcomeValue(.double(1), createdDate: fixture.date(2026, 3, 1)),
            OutcomeValue(.double(.nan), createdDate: fixture.date(2026, 3, 1)),
        ]
        try expectRefusal(NewOutcome(taskUUID: task.uuid, occurrence: 0, values: values)) {
            if case .nonFiniteValue(taskID: "checkin", occurrence: 0, position: 1) = $0 { true } else { false }
        }
    }

    @Test func aBatchWithOneBadOutcomeRecordsNothing() throws {
        let before = try fixture.dump()
        #expect(throws: CareStoreError.self) {
            try store.addOutcomes(
                [
                    NewOutcome(taskUUID: task.uuid, occurrence: 0, values: []),
                    NewOutcome(taskUUID: task.uuid, occurrence: 1, values: []),
                    NewOutcome(taskUUID: task.uuid, occurrence: 0, values: []),
                ], now: fixture.date(2026, 3, 3))
        }
        #expect(try fixture.dump() == before)
    }

    @Test func threadsSharingOneStoreAreSerialized() throws {
        let store = store, uuid = task.uuid, now = fixture.date(2026, 3, 1)
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 40) { occurrence in
            do {
                try store.addOutcome(NewOutcome(taskUUID: uuid, occurrence: occurrence, values: []), now: now)
                _ = try store.fetchOutcomes()
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(Set(try store.fetchOutcomes().map(\.outcome.taskOccurrenceIndex)) == Set(0..<40))
    }

    // MARK: - Deleting

    @Test func deletingKeepsTheRowAndFreesTheEvent() throws {
        try store.addOutcome(
            NewOutcome(taskUUID: task.uuid, occurrence: 2, values: []), now: fixture.date(2026, 3, 3, 9))
        let deleted = try store.deleteOutcome(taskID: "checkin", occurrence: 2, now: fixture.date(2026, 3, 3, 10))
        #expect(deleted.outcome.deletedDate == fixture.date(2026, 3, 3, 10))
        #expect(try store.fetchOutcomes().isEmpty)
        #expect(try fixture.dump().filter { $0.hasPrefix("outcome:") }.count == 1)
        let again = try store.addOutcome(
            NewOutcome(taskUUID: task.uuid, occurrence: 2, values: []), now: fixture.date(2026, 3, 3, 11))
        #expect(try store.fetchOutcomes() == [again])
    }

    @Test func refusesDeletingAMissingOutcome() throws {
        let before = try fixture.dump()
        #expect { try store.deleteOutcome(taskID: "checkin", occurrence: 4, now: fixture.date(2026, 3, 5)) } throws: {
            if case .noOutcome(taskID: "checkin", occurrence: 4)? = $0 as? CareStoreError { true } else { false }
        }
        #expect { try store.deleteOutcome(taskID: "nope", occurrence: 0, now: fixture.date(2026, 3, 5)) } throws: {
            if case .unknownTask(id: "nope")? = $0 as? CareStoreError { true } else { false }
        }
        #expect(try fixture.dump() == before)
    }

    // MARK: - Queries

    @Test func dateQueriesKeepOutcomesWhoseEventOverlaps() throws {
        let other = try store.addTask(try fixture.dailyTask("other", hour: 20, start: fixture.date(2026, 3, 1)))
        for occurrence in 0..<5 {
            try store.addOutcomes(
                [
                    NewOutcome(taskUUID: task.uuid, occurrence: occurrence, values: []),
                    NewOutcome(taskUUID: other.uuid, occurrence: occurrence, values: []),
                ],
                now: fixture.date(2026, 3, 10))
        }
        // 09:30 on March 2 overlaps that day's 09:00–10:00 event; 10:00 is its end, still included.
        let interval = DateInterval(start: fixture.date(2026, 3, 2, 9, 30), end: fixture.date(2026, 3, 3, 9))
        let found = try store.fetchOutcomes(OutcomeQuery(dateInterval: interval))
        #expect(found.map(\.taskID) == ["checkin", "other"])
        #expect(found.map(\.outcome.taskOccurrenceIndex) == [1, 1])
        let onlyOther = try store.fetchOutcomes(OutcomeQuery(taskIDs: ["other"], dateInterval: interval))
        #expect(onlyOther.map(\.taskID) == ["other"])
        let atEnd = DateInterval(start: fixture.date(2026, 3, 2, 10), end: fixture.date(2026, 3, 2, 11))
        #expect(try store.fetchOutcomes(OutcomeQuery(taskIDs: ["checkin"], dateInterval: atEnd)).count == 1)
        #expect(try store.fetchOutcomes(OutcomeQuery(taskIDs: ["checkin"])).count == 5)
        #expect { try store.fetchOutcomes(OutcomeQuery(taskIDs: ["nope"])) } throws: {
            if case .unknownTask(id: "nope")? = $0 as? CareStoreError { true } else { false }
        }
    }
}
