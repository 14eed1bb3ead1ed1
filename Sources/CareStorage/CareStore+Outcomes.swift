import Care
import Foundation
import SQLite

extension CareStore {
    /// Records outcomes, each for one event, freezing the event's window on it. All or nothing.
    ///
    /// - Parameters:
    ///   - outcomes: The events (task version, occurrence) and values.
    ///   - now: The recording instant, stored as the outcome's creation date.
    /// - Returns: The stored outcomes.
    /// - Throws: ``CareStoreError/unknownTaskVersion(_:)``; ``CareStoreError/onboardingRequired(taskID:)``
    ///   while onboarding is not done; ``CareStoreError/nonFiniteValue(taskID:occurrence:position:)``;
    ///   ``CareStoreError/care(_:)`` when the task was deleted, the
    ///   occurrence is not in the version's schedule, a later version owns the event, or the
    ///   event already has an outcome.
    @discardableResult
    public func addOutcomes(_ outcomes: [NewOutcome], now: Date) throws(CareStoreError) -> [StoredOutcome] {
        let calendar = calendar
        return try write { db in
            try outcomes.map { new in
                guard
                    let taskID = try db.fetchValue(
                        "SELECT id FROM task WHERE uuid = ?", [new.taskUUID], as: String.self)
                else { throw CareStoreError.unknownTaskVersion(new.taskUUID) }
                for (position, value) in new.values.enumerated() {
                    if case .double(let double) = value.value, !double.isFinite {
                        throw CareStoreError.nonFiniteValue(
                            taskID: taskID, occurrence: new.occurrence, position: position)
                    }
                }
                try Self.checkOnboardingDone(recording: taskID, in: db)
                let chain = try self.chain(id: taskID, in: db)
                guard !chain.isDeleted else { throw CareError.taskDeleted(taskID: taskID) }
                // Only the event's own outcomes matter to the rules; reading the task's whole
                // history for each insert would grow with it.
                let existing = try Self.outcomes(
                    OutcomeFilter(event: (new.taskUUID, new.occurrence)), in: db
                ).map(\.outcome)
                let event = try chain.eventForNewOutcome(
                    taskUUID: new.taskUUID, occurrence: new.occurrence, existingOutcomes: existing, calendar: calendar)
                let outcome = Outcome(
                    taskUUID: new.taskUUID, taskOccurrenceIndex: new.occurrence, values: new.values,
                    createdDate: now, eventStart: event.start, eventEnd: event.end)
                do {
                    try Self.insert(outcome, in: db)
                } catch ResultCode.SQLITE_CONSTRAINT_UNIQUE {
                    // The partial unique index backs the rule up.
                    throw CareError.duplicateOutcome(taskID: taskID, occurrence: new.occurrence)
                }
                return StoredOutcome(taskID: taskID, outcome: outcome)
            }
        }
    }

    /// Records one outcome. See ``addOutcomes(_:now:)``.
    @discardableResult
    public func addOutcome(_ outcome: NewOutcome, now: Date) throws(CareStoreError) -> StoredOutcome {
        try addOutcomes([outcome], now: now)[0]
    }

    /// Deletes the live outcome of a task's occurrence: the row stays, marked deleted at `now`,
    /// and the event may be recorded again.
    ///
    /// Occurrence indices belong to task versions; when several versions have a live outcome at
    /// this index, the newest version's is deleted.
    ///
    /// - Returns: The deleted outcome.
    /// - Throws: ``CareStoreError/unknownTask(id:)``, ``CareStoreError/noOutcome(taskID:occurrence:)``.
    @discardableResult
    public func deleteOutcome(taskID: String, occurrence: Int, now: Date) throws(CareStoreError) -> StoredOutcome {
        try write { db in
            let chain = try self.chain(id: taskID, in: db)
            var found: Outcome?
            for version in chain.versions.reversed() where found == nil {
                found = try Self.outcomes(OutcomeFilter(event: (version.uuid, occurrence)), in: db).first?.outcome
            }
            guard var outcome = found else { throw CareStoreError.noOutcome(taskID: taskID, occurrence: occurrence) }
            try db.execute("UPDATE outcome SET deleted_date = ? WHERE uuid = ?", [now, outcome.uuid])
            outcome.deletedDate = now
            return StoredOutcome(taskID: taskID, outcome: outcome)
        }
    }

    /// The live outcomes a query selects, ordered by event start, with their task ids.
    ///
    /// - Throws: ``CareStoreError/unknownTask(id:)`` for a task id never added,
    ///   ``CareStoreError/emptyInterval(start:end:)`` for an interval that is not `start < end`.
    public func fetchOutcomes(_ query: OutcomeQuery = OutcomeQuery()) throws(CareStoreError) -> [StoredOutcome] {
        if let interval = query.dateInterval, !(interval.start < interval.end) {
            throw .emptyInterval(start: interval.start, end: interval.end)
        }
        return try read { db in
            for id in query.taskIDs where try db.fetchOne("SELECT 1 FROM task WHERE id = ?", [id]) == nil {
                throw CareStoreError.unknownTask(id: id)
            }
            return try Self.outcomes(
                OutcomeFilter(taskIDs: query.taskIDs.isEmpty ? nil : query.taskIDs, interval: query.dateInterval),
                in: db
            ).map { StoredOutcome(taskID: $0.taskID, outcome: $0.outcome) }
        }
    }
}
