/// A task version's scheduled event together with its outcome, if one was recorded.
public struct Event: Hashable, Sendable {
    /// The task version that owns the event.
    public var task: CareTask
    /// The event's window and occurrence index in `task.schedule`.
    public var scheduleEvent: ScheduleEvent
    /// The live outcome recorded for the event, or nil.
    public var outcome: Outcome?

    /// Pairs a task version's schedule event with its outcome, if any.
    public init(task: CareTask, scheduleEvent: ScheduleEvent, outcome: Outcome? = nil) {
        self.task = task
        self.scheduleEvent = scheduleEvent
        self.outcome = outcome
    }
}
