import Foundation
import Testing

@testable import Care

@Suite struct TaskVersionChainTests {
    let la = Calendars.losAngeles

    func chain(_ versions: CareTask...) throws -> TaskVersionChain { try TaskVersionChain(versions) }

    /// (day of month, hour, version number) of each event from June 1 to June 15.
    func summary(_ chain: TaskVersionChain, from: Int = 1, to: Int = 15) -> [[Int]] {
        chain.events(from: la.date(2021, 6, from), to: la.date(2021, 6, to), calendar: la).map {
            [
                la.parts($0.scheduleEvent.start)[2], la.parts($0.scheduleEvent.start)[3],
                Int($0.task.uuid.uuidString.suffix(4))!,
            ]
        }
    }

    // MARK: - Chain shape

    @Test func rejectsBrokenChains() {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        #expect(throws: CareError.emptyVersionChain) { try TaskVersionChain([]) }
        #expect(throws: CareError.self) {
            try chain(v1, Fixtures.task(2, schedule: Fixtures.daily(at: 9), previous: 7))
        }
        #expect(throws: CareError.self) {
            try chain(v1, Fixtures.task(2, id: "other", schedule: Fixtures.daily(at: 9), previous: 1))
        }
        let tombstone = Fixtures.task(2, schedule: Fixtures.daily(at: 8), previous: 1, deleted: la.date(2021, 6, 3))
        #expect(throws: CareError.self) {
            try chain(v1, tombstone, Fixtures.task(3, schedule: Fixtures.daily(at: 9), previous: 2))
        }
    }

    // MARK: - Which version applies

    @Test func laterEffectiveDateTakesOverFromThatDate() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let v2 = Fixtures.task(2, schedule: Fixtures.daily(at: 10), effective: la.date(2021, 6, 5), previous: 1)
        let chain = try chain(v1, v2)
        #expect(chain.version(for: la.dayInterval(containing: la.date(2021, 6, 4)))?.uuid == v1.uuid)
        #expect(chain.version(for: la.dayInterval(containing: la.date(2021, 6, 5)))?.uuid == v2.uuid)
        #expect(
            summary(chain, to: 8) == [
                [1, 8, 1], [2, 8, 1], [3, 8, 1], [4, 8, 1], [5, 10, 2], [6, 10, 2], [7, 10, 2],
            ])
        // v2's own schedule also starts June 1, so its June 5 event is its occurrence 4.
        let june5 = chain.events(from: la.date(2021, 6, 5), to: la.date(2021, 6, 6), calendar: la)
        #expect(june5.map(\.scheduleEvent.occurrence) == [4])
    }

    @Test func newerVersionWithEarlierEffectiveDateOwnsOnlyUntilTheOlderOne() throws {
        // [CK] testFetchEventsForUpdatedTaskWithEarlierEffectiveDate: the older version still owns
        // the time after its own (later) effective date.
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8, from: 10))
        let v2 = Fixtures.task(2, schedule: Fixtures.daily(at: 10), effective: la.date(2021, 6, 5), previous: 1)
        let chain = try chain(v1, v2)
        #expect(
            summary(chain, to: 13) == [
                [5, 10, 2], [6, 10, 2], [7, 10, 2], [8, 10, 2], [9, 10, 2], [10, 8, 1], [11, 8, 1], [12, 8, 1],
            ])
        // A window ending before the older version's date never reaches past its own end.
        #expect(summary(chain, from: 6, to: 8) == [[6, 10, 2], [7, 10, 2]])
    }

    @Test func equalEffectiveDatesNewestWins() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let v2 = Fixtures.task(2, schedule: Fixtures.daily(at: 10), effective: v1.effectiveDate, previous: 1)
        #expect(summary(try chain(v1, v2), to: 4) == [[1, 10, 2], [2, 10, 2], [3, 10, 2]])
    }

    @Test func versionEventThatStartedBeforeItsEffectiveDateIsStillEmitted() throws {
        // All-day v1; v2 effective at noon June 3: both June 3 events show, as in CareKit's
        // testFetchEventsForAllDayVersionedTaskReturnsBothVersions.
        let allDay = try Schedule.dailyAtTime(
            hour: 0, minutes: 0, start: la.date(2021, 6, 1), duration: .allDay, calendar: la)
        let v1 = Fixtures.task(1, schedule: allDay)
        let v2 = Fixtures.task(2, schedule: allDay, effective: la.date(2021, 6, 3, 12), previous: 1)
        let day = la.dayInterval(containing: la.date(2021, 6, 3))
        let events = try chain(v1, v2).events(from: day.start, to: day.end, calendar: la)
        #expect(events.map(\.task.uuid) == [v1.uuid, v2.uuid])
    }

    @Test func tombstoneHidesTheTaskFromItsEffectiveDate() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let v2 = Fixtures.task(2, schedule: Fixtures.daily(at: 10), effective: la.date(2021, 6, 10), previous: 1)
        let deleted = try chain(v1, v2).deleting(uuid: Fixtures.uuid(3), now: la.date(2021, 6, 9))
        #expect(deleted.isDeleted)
        #expect(deleted.head.effectiveDate == la.date(2021, 6, 10))
        #expect(deleted.version(for: la.dayInterval(containing: la.date(2021, 6, 8)))?.uuid == v1.uuid)
        #expect(deleted.version(for: la.dayInterval(containing: la.date(2021, 6, 10))) == nil)
        #expect(deleted.events(from: la.date(2021, 6, 10), to: la.date(2021, 6, 12), calendar: la).isEmpty)
        #expect(throws: CareError.taskDeleted(taskID: "exercise")) {
            try deleted.deleting(uuid: Fixtures.uuid(4), now: la.date(2021, 6, 11))
        }
    }

    @Test func versionBeforeFirstEffectiveDateIsNone() throws {
        let chain = try chain(Fixtures.task(1, schedule: Fixtures.daily(at: 8, from: 5)))
        #expect(chain.version(for: la.dayInterval(containing: la.date(2021, 6, 4))) == nil)
        #expect(chain.events(from: la.date(2021, 6, 1), to: la.date(2021, 6, 5), calendar: la).isEmpty)
    }

    @Test func eventsJoinLiveOutcomesOnVersionAndOccurrence() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let chain = try chain(v1)
        let done = Fixtures.outcome(v1, 1)
        let removed = Fixtures.outcome(v1, 2, deleted: la.date(2021, 6, 4))
        let events = chain.events(
            from: la.date(2021, 6, 1), to: la.date(2021, 6, 4), outcomes: [done, removed], calendar: la)
        #expect(events.map { $0.outcome != nil } == [false, true, false])
    }

    // MARK: - Update guard

    @Test func updateAtOrBeforeTheLatestOutcomeEventIsRefused() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let chain = try chain(v1)
        let outcomes = [Fixtures.outcome(v1, 0), Fixtures.outcome(v1, 2)]
        let june3 = la.date(2021, 6, 3, 8)
        #expect(
            throws: CareError.updateWouldOrphanOutcomes(
                taskID: "exercise", effectiveDate: june3, latestOutcomeEventStart: june3)
        ) {
            try chain.validateUpdate(effectiveDate: june3, outcomes: outcomes)
        }
        try chain.validateUpdate(effectiveDate: june3.addingTimeInterval(1), outcomes: outcomes)
        // A deleted outcome no longer blocks.
        try chain.validateUpdate(effectiveDate: june3, outcomes: [Fixtures.outcome(v1, 2, deleted: june3)])
    }

    @Test func updatingAppendsALinkedVersion() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        var proposed = v1
        proposed.schedule = Fixtures.daily(at: 9)
        proposed.effectiveDate = la.date(2021, 6, 20)
        let updated = try chain(v1).updating(
            with: proposed, uuid: Fixtures.uuid(2), now: la.date(2021, 6, 19), outcomes: [])
        #expect(updated.versions.count == 2)
        #expect(updated.head.previousVersionUUID == v1.uuid)
        #expect(updated.head.updatedDate == la.date(2021, 6, 19))
        #expect(updated.head.createdDate == v1.createdDate)
        #expect(updated.head.schedule == Fixtures.daily(at: 9))
    }

    @Test func updatingADeletedTaskIsRefused() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let deleted = try chain(v1).deleting(uuid: Fixtures.uuid(2), now: la.date(2021, 6, 2))
        #expect(throws: CareError.taskDeleted(taskID: "exercise")) {
            try deleted.validateUpdate(effectiveDate: la.date(2021, 7, 1), outcomes: [])
        }
    }

    // MARK: - Outcome rules

    @Test func outcomeForAnEventOfTheVersionReturnsItsWindow() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let event = try chain(v1).eventForNewOutcome(
            taskUUID: v1.uuid, occurrence: 3, existingOutcomes: [], calendar: la)
        #expect(event.start == la.date(2021, 6, 4, 8))
        #expect(event.end == la.date(2021, 6, 4, 9))
    }

    @Test func outcomeInARegionShadowedByALaterVersionIsRefused() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let v2 = Fixtures.task(2, schedule: Fixtures.daily(at: 10), effective: la.date(2021, 6, 5), previous: 1)
        let chain = try chain(v1, v2)
        _ = try chain.eventForNewOutcome(taskUUID: v1.uuid, occurrence: 3, existingOutcomes: [], calendar: la)
        #expect(
            throws: CareError.occurrenceShadowedByLaterVersion(
                taskID: "exercise", occurrence: 4, laterVersionEffectiveDate: la.date(2021, 6, 5))
        ) {
            try chain.eventForNewOutcome(taskUUID: v1.uuid, occurrence: 4, existingOutcomes: [], calendar: la)
        }
        _ = try chain.eventForNewOutcome(taskUUID: v2.uuid, occurrence: 4, existingOutcomes: [], calendar: la)
    }

    @Test func olderVersionWithLaterEffectiveDateStillAcceptsOutcomesAfterIt() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8, from: 10))
        let v2 = Fixtures.task(2, schedule: Fixtures.daily(at: 10), effective: la.date(2021, 6, 5), previous: 1)
        let event = try chain(v1, v2).eventForNewOutcome(
            taskUUID: v1.uuid, occurrence: 2, existingOutcomes: [], calendar: la)
        #expect(event.start == la.date(2021, 6, 12, 8))
    }

    @Test func outcomeForAMissingOccurrenceOrVersionIsRefused() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8, end: la.date(2021, 6, 3)))
        let chain = try chain(v1)
        #expect(throws: CareError.occurrenceNotInSchedule(taskID: "exercise", occurrence: 2)) {
            try chain.eventForNewOutcome(taskUUID: v1.uuid, occurrence: 2, existingOutcomes: [], calendar: la)
        }
        #expect(throws: CareError.occurrenceNotInSchedule(taskID: "exercise", occurrence: -1)) {
            try chain.eventForNewOutcome(taskUUID: v1.uuid, occurrence: -1, existingOutcomes: [], calendar: la)
        }
        #expect(throws: CareError.unknownTaskVersion(taskID: "exercise", uuid: Fixtures.uuid(9))) {
            try chain.eventForNewOutcome(taskUUID: Fixtures.uuid(9), occurrence: 0, existingOutcomes: [], calendar: la)
        }
    }

    @Test func secondLiveOutcomeForAnEventIsRefusedUntilTheFirstIsDeleted() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let chain = try chain(v1)
        #expect(throws: CareError.duplicateOutcome(taskID: "exercise", occurrence: 1)) {
            try chain.eventForNewOutcome(
                taskUUID: v1.uuid, occurrence: 1, existingOutcomes: [Fixtures.outcome(v1, 1)], calendar: la)
        }
        let deleted = Fixtures.outcome(v1, 1, deleted: la.date(2021, 6, 3))
        _ = try chain.eventForNewOutcome(taskUUID: v1.uuid, occurrence: 1, existingOutcomes: [deleted], calendar: la)
    }

    @Test func errorMessagesNameTheTaskAndOccurrence() {
        let message = "\(CareError.occurrenceNotInSchedule(taskID: "checkin", occurrence: 12))"
        #expect(message == "task 'checkin' has no occurrence 12 in its schedule")
        let orphan =
            "\(CareError.updateWouldOrphanOutcomes(taskID: "checkin", effectiveDate: Date(timeIntervalSince1970: 0), latestOutcomeEventStart: Date(timeIntervalSince1970: 60)))"
        #expect(orphan.contains("1970-01-01T00:01:00Z"))
    }
}
