import Foundation

/// Which outcomes to fetch.
public struct OutcomeQuery: Hashable, Sendable {
    /// Task ids; empty means all tasks.
    public var taskIDs: [String]
    /// Keep outcomes whose event overlaps the interval: event start before `end` (exclusive) and
    /// event end at or after `start` (CareKit's rule, on the event window frozen with the
    /// outcome). Nil keeps all.
    public var dateInterval: DateInterval?

    public init(taskIDs: [String] = [], dateInterval: DateInterval? = nil) {
        self.taskIDs = taskIDs
        self.dateInterval = dateInterval
    }
}
