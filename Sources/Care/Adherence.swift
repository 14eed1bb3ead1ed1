/// How well a day's care plan was followed: the completion ring's state.
public enum Adherence: Hashable, Sendable {
    /// No task that impacts adherence is scheduled that day (the ring is dimmed).
    case noTasks
    /// Tasks are live that day but none has an event (the ring is empty).
    case noEvents
    /// The mean per-event progress, 0…1; an event counts 1 when it has an outcome (even one with no
    /// values), else 0.
    case progress(Double)
}
