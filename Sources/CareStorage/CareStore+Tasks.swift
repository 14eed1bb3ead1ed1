import Care
import Foundation
import SQLite

extension CareStore {
    /// Adds new tasks, each as its first version. All or nothing.
    ///
    /// A schedule denser than `Schedule.maximumEventsPerDay` is refused, here and in updates:
    /// every query of events and adherence grows with it.
    ///
    /// - Throws: ``CareStoreError/duplicateTaskID(_:)`` when a task with the id exists or ever
    ///   existed (ids are never reused, even after a delete), ``CareStoreError/duplicateTaskVersion(_:)``,
    ///   ``CareStoreError/care(_:)`` for a task that names a previous version,
    ///   ``CareStoreError/schedule(_:)`` with `tooManyEventsPerDay`.
    @discardableResult
    public func addTasks(_ tasks: [CareTask]) throws(CareStoreError) -> [CareTask] {
        try write { db in
            for task in tasks {
                _ = try TaskVersionChain([task])
                try task.schedule.checkEventRate()
                if try db.fetchOne("SELECT 1 FROM task WHERE id = ?", [task.id]) != nil {
                    throw CareStoreError.duplicateTaskID(task.id)
                }
                if try db.fetchOne("SELECT 1 FROM task WHERE uuid = ?", [task.uuid]) != nil {
                    throw CareStoreError.duplicateTaskVersion(task.uuid)
                }
                try Self.insert(task, in: db)
            }
            return tasks
        }
    }

    /// Adds one new task. See ``addTasks(_:)``.
    @discardableResult
    public func addTask(_ task: CareTask) throws(CareStoreError) -> CareTask {
        try addTasks([task])[0]
    }

    /// Stores a new version of each task (matched by id). All or nothing.
    ///
    /// Each new version keeps the proposed fields (title, schedule, effective date…) and gets a
    /// fresh UUID, the current version as its previous one, the task's creation date and
    /// `updatedDate = now`.
    ///
    /// - Throws: ``CareStoreError/unknownTask(id:)``; ``CareStoreError/care(_:)`` with
    ///   `taskDeleted`, or `updateWouldOrphanOutcomes` when the new effective date is not after
    ///   the start of every event that has an outcome (move the effective date later).
    @discardableResult
    public func updateTasks(_ tasks: [CareTask], now: Date) throws(CareStoreError) -> [CareTask] {
        try write { db in
            try tasks.map { proposed in
                try proposed.schedule.checkEventRate()
                let chain = try self.chain(id: proposed.id, in: db)
                let outcomes = try Self.outcomes(OutcomeFilter(taskIDs: [proposed.id]), in: db).map(\.outcome)
                let updated = try chain.updating(with: proposed, uuid: UUID(), now: now, outcomes: outcomes)
                try Self.insert(updated.head, in: db)
                return updated.head
            }
        }
    }

    /// Stores a new version of one task. See ``updateTasks(_:now:)``.
    @discardableResult
    public func updateTask(_ task: CareTask, now: Date) throws(CareStoreError) -> CareTask {
        try updateTasks([task], now: now)[0]
    }

    /// Deletes tasks by appending a tombstone version to each: the task disappears from the
    /// tombstone's effective date (that of its current version) on; its rows and outcomes stay.
    /// All or nothing.
    ///
    /// The onboarding task is refused: it holds the patient's consent, which gates every other
    /// outcome (``checkOnboardingDone(recording:)``); deleting it must not lift the gate.
    ///
    /// - Returns: The tombstones.
    /// - Throws: ``CareStoreError/unknownTask(id:)``, ``CareStoreError/care(_:)`` with
    ///   `taskDeleted` when already deleted, ``CareStoreError/onboardingTaskKept``.
    @discardableResult
    public func deleteTasks(ids: [String], now: Date) throws(CareStoreError) -> [CareTask] {
        if ids.contains(RecoverCarePlan.TaskID.onboarding) { throw .onboardingTaskKept }
        return try write { db in
            try ids.map { id in
                let deleted = try self.chain(id: id, in: db).deleting(uuid: UUID(), now: now)
                try Self.insert(deleted.head, in: db)
                return deleted.head
            }
        }
    }

    /// Deletes one task. See ``deleteTasks(ids:now:)``.
    @discardableResult
    public func deleteTask(id: String, now: Date) throws(CareStoreError) -> CareTask {
        try deleteTasks(ids: [id], now: now)[0]
    }

    /// The task versions a query selects (the version applying to its interval, filtered as
    /// CareKit does; see `TaskQuery.tasks(in:calendar:)`), in the order the tasks were added.
    public func fetchTasks(_ query: TaskQuery) throws(CareStoreError) -> [CareTask] {
        if let interval = query.dateInterval, !(interval.start < interval.end) {
            throw .emptyInterval(start: interval.start, end: interval.end)
        }
        let calendar = calendar
        let chains = try read { try self.chains(ids: query.ids.isEmpty ? nil : query.ids, in: $0) }
        return query.tasks(in: chains, calendar: calendar)
    }

    /// Every version of a task, oldest first (the last may be a tombstone).
    ///
    /// - Throws: ``CareStoreError/unknownTask(id:)``.
    public func fetchTaskVersions(id: String) throws(CareStoreError) -> TaskVersionChain {
        try read { try self.chain(id: id, in: $0) }
    }
}
