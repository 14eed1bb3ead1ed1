import Care
import Foundation

/// An outcome to record: which event (task version and occurrence) and its values. The store
/// freezes the event's window on the outcome.
public struct NewOutcome: Hashable, Sendable {
    /// The task version whose event this is (from an ``Care/Event``'s `task.uuid`).
    public var taskUUID: UUID
    /// The event's occurrence index in that version's schedule.
    public var occurrence: Int
    /// The values, in order; may be empty (the outcome still completes the event).
    public var values: [OutcomeValue]

    public init(taskUUID: UUID, occurrence: Int, values: [OutcomeValue]) {
        self.taskUUID = taskUUID
        self.occurrence = occurrence
        self.values = values
    }
}
