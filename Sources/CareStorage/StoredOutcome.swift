import Care

/// An outcome as read from the store, with the id of its task (the outcome itself names only
/// the task version).
public struct StoredOutcome: Hashable, Sendable {
    /// The task's id, shared by all its versions.
    public var taskID: String
    /// The outcome, with its values in the order they were recorded.
    public var outcome: Outcome

    public init(taskID: String, outcome: Outcome) {
        self.taskID = taskID
        self.outcome = outcome
    }
}
