import Foundation

/// One occurrence of a schedule: its window and its occurrence index.
public struct ScheduleEvent: Hashable, Sendable {
    /// The event's start (inclusive).
    public let start: Date
    /// The event's end: start + duration, or 23:59:59 local time for an all-day event.
    public let end: Date
    /// The index of this event. From ``Schedule`` it is global: the rank among all the schedule's
    /// events since it began (ties by element order, then element-local order). From
    /// ``ScheduleElement`` it is local to the element. Outcomes are bound to this number.
    public let occurrence: Int
    /// The element that produced the event.
    public let element: ScheduleElement

    /// Creates an event; normally events come from ``Schedule`` or ``ScheduleElement``.
    public init(start: Date, end: Date, occurrence: Int, element: ScheduleElement) {
        self.start = start
        self.end = end
        self.occurrence = occurrence
        self.element = element
    }

    func renumbered(_ occurrence: Int) -> ScheduleEvent {
        ScheduleEvent(start: start, end: end, occurrence: occurrence, element: element)
    }
}
