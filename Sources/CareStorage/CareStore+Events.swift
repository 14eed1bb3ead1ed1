import Care
import Foundation
import SQLite

extension CareStore {
    /// The longest window ``fetchEvents(taskIDs:from:to:)`` and ``fetchAdherence(from:to:taskIDs:)``
    /// take: ten years of days. With `Schedule.maximumEventsPerDay` it bounds a query's work.
    public static let maximumQueryDays = 3660

    /// Refuses an interval that is empty or longer than ``maximumQueryDays``, as the queries do;
    /// for callers that check arguments before opening or querying.
    public static func checkQueryInterval(from start: Date, to end: Date) throws(CareStoreError) {
        guard start < end else { throw .emptyInterval(start: start, end: end) }
        // The bound is on elapsed time: a window of local days may hold one spring-forward more
        // than fall-backs, an hour, but not a day more (3661 days passed).
        if end.timeIntervalSince(start) > Double(maximumQueryDays) * 86_400 + 3_600 {
            throw .intervalTooLong(start: start, end: end, maximumDays: maximumQueryDays)
        }
    }

    /// The events of tasks in `[start, end)`, each from the task version that owns it, with its
    /// live outcome ([CK] `fetchEvents`; the rules are `TaskVersionChain.events`).
    ///
    /// - Parameters:
    ///   - taskIDs: Tasks to include; empty means all.
    ///   - start: Inclusive lower bound, compared with event ends.
    ///   - end: Exclusive upper bound, compared with event starts.
    /// - Returns: Events ordered by start, then by the order the tasks were added.
    /// - Throws: ``CareStoreError/emptyInterval(start:end:)`` unless `start < end`,
    ///   ``CareStoreError/intervalTooLong(start:end:maximumDays:)``.
    public func fetchEvents(taskIDs: [String] = [], from start: Date, to end: Date) throws(CareStoreError) -> [Event] {
        try Self.checkQueryInterval(from: start, to: end)
        let calendar = calendar
        let ids = taskIDs.isEmpty ? nil : taskIDs
        let (chains, outcomes) = try read { db in
            (
                try self.chains(ids: ids, in: db),
                try Self.outcomes(OutcomeFilter(taskIDs: ids, interval: DateInterval(start: start, end: end)), in: db)
            )
        }
        if let ids, let missing = ids.first(where: { id in !chains.contains { $0.id == id } }) {
            throw .unknownTask(id: missing)
        }
        let outcomesByTask = Dictionary(grouping: outcomes.map(\.outcome)) { $0.taskUUID }
        let events = chains.flatMap { chain in
            chain.events(
                from: start, to: end,
                outcomes: chain.versions.flatMap { outcomesByTask[$0.uuid] ?? [] }, calendar: calendar)
        }
        // Stable: equal starts keep the order of the tasks.
        return events.enumerated()
            .sorted { ($0.element.scheduleEvent.start, $0.offset) < ($1.element.scheduleEvent.start, $1.offset) }
            .map(\.element)
    }

    /// The events of one task in `[start, end)`. See ``fetchEvents(taskIDs:from:to:)``.
    public func fetchEvents(taskID: String, from start: Date, to end: Date) throws(CareStoreError) -> [Event] {
        try fetchEvents(taskIDs: [taskID], from: start, to: end)
    }

    /// Adherence per local day of the store's calendar, for the days from the start of `start`'s
    /// day while before `end` (the rules are `Adherence.daily`: tasks that impact adherence only;
    /// no tasks / no events / the share of events with an outcome).
    ///
    /// - Parameter taskIDs: Tasks to consider; empty means all.
    /// - Throws: ``CareStoreError/emptyInterval(start:end:)`` unless `start < end`,
    ///   ``CareStoreError/intervalTooLong(start:end:maximumDays:)``.
    public func fetchAdherence(from start: Date, to end: Date, taskIDs: [String] = []) throws(CareStoreError)
        -> [DailyAdherence]
    {
        try fetchAdherenceAndOutcomes(from: start, to: end, taskIDs: taskIDs).days
    }

    /// Adherence per day as ``fetchAdherence(from:to:taskIDs:)`` computes it, with the live
    /// outcomes of every task whose events overlap those days (ordered by event start), from one
    /// read: a view of both over a long history would otherwise read every outcome twice.
    ///
    /// - Throws: ``CareStoreError/emptyInterval(start:end:)`` unless `start < end`,
    ///   ``CareStoreError/intervalTooLong(start:end:maximumDays:)``.
    public func fetchAdherenceAndOutcomes(
        from start: Date, to end: Date, taskIDs: [String] = []
    ) throws(CareStoreError) -> (days: [DailyAdherence], outcomes: [StoredOutcome]) {
        try Self.checkQueryInterval(from: start, to: end)
        let calendar = calendar
        let interval = DateInterval(start: calendar.startOfDay(for: start), end: end)
        let (chains, outcomes) = try read { db in
            (try self.chains(ids: nil, in: db), try Self.outcomes(OutcomeFilter(interval: interval), in: db))
        }
        let days = Adherence.daily(
            in: interval, chains: chains, outcomes: outcomes.map(\.outcome), taskIDs: taskIDs, calendar: calendar)
        return (days, outcomes.map { StoredOutcome(taskID: $0.taskID, outcome: $0.outcome) })
    }
}
