import Foundation

/// Which tasks to show for a date interval ([CK] `OCKTaskQuery`).
public struct TaskQuery: Hashable, Sendable {
    /// Task ids to consider; empty means all.
    public var ids: [String]
    /// The interval, or nil for the current (head) version of every task that is not deleted.
    public var dateInterval: DateInterval?
    /// Drop tasks whose applying version has no event in the interval (for every-other-day tasks,
    /// which would otherwise show an empty card).
    public var excludesTasksWithNoEvents: Bool

    /// Creates a query; the defaults select the head of every task that is not deleted.
    public init(ids: [String] = [], dateInterval: DateInterval? = nil, excludesTasksWithNoEvents: Bool = false) {
        self.ids = ids
        self.dateInterval = dateInterval
        self.excludesTasksWithNoEvents = excludesTasksWithNoEvents
    }

    /// A query for the local day containing `date`, 00:00:00 to 23:59:59
    /// (see ``Foundation/Calendar/dayInterval(containing:)``).
    public init(
        forDayContaining date: Date, calendar: Calendar, ids: [String] = [], excludesTasksWithNoEvents: Bool = false
    ) {
        self.init(
            ids: ids, dateInterval: calendar.dayInterval(containing: date),
            excludesTasksWithNoEvents: excludesTasksWithNoEvents)
    }

    /// The task versions the query returns, in the order of `chains`.
    ///
    /// With an interval, each chain contributes the version that applies to it
    /// (``TaskVersionChain/version(for:)``), then [CK] `filtered` runs on that version's whole
    /// schedule (its effective date aside): with ``excludesTasksWithNoEvents``, a version without
    /// events in the interval is dropped; a finite schedule is kept only if it ends at or after the
    /// interval's start and the version took effect by its end; an infinite one is dropped when it
    /// has no events and takes effect after the interval. Without an interval, each chain that is
    /// not deleted contributes its head (CareKit would return every version).
    public func tasks(in chains: [TaskVersionChain], calendar: Calendar) -> [CareTask] {
        let wanted = Set(ids)
        return chains.compactMap { chain -> CareTask? in
            guard wanted.isEmpty || wanted.contains(chain.id) else { return nil }
            guard let interval = dateInterval else { return chain.isDeleted ? nil : chain.head }
            guard let task = chain.version(for: interval) else { return nil }
            return includes(task, in: interval, calendar: calendar) ? task : nil
        }
    }

    private func includes(_ task: CareTask, in interval: DateInterval, calendar: Calendar) -> Bool {
        let hasEvents = task.schedule.hasEvents(from: interval.start, to: interval.end, calendar: calendar)
        if excludesTasksWithNoEvents, !hasEvents { return false }
        if let scheduleEnd = task.schedule.endDate {
            return scheduleEnd >= interval.start && task.effectiveDate <= interval.end
        }
        return hasEvents || task.effectiveDate <= interval.end
    }
}
