import Foundation

extension ScheduleElement {
    /// The element's events that overlap a query window.
    ///
    /// The lower bound is inclusive on the event's end (an event ending exactly at `start` is
    /// kept) and the upper bound is exclusive on the event's start, with the all-day rule: an
    /// all-day event on the day that contains `end − 1 s` is kept. Occurrence indices count from the
    /// element's first event.
    ///
    /// - Parameters:
    ///   - start: Inclusive lower bound, compared with event ends.
    ///   - end: Exclusive upper bound, compared with event starts.
    ///   - calendar: The calendar used to build the element.
    /// - Returns: Events in order; empty when `start >= end` (CareKit traps there).
    public func events(from start: Date, to end: Date, calendar: Calendar) -> [ScheduleEvent] {
        guard start < end else { return [] }
        var iterator = ScheduleElementEventIterator(element: self, calendar: calendar, limit: end)
        _ = iterator.skip(eventsStartingBefore: start.addingTimeInterval(-longestEventSeconds))
        var events: [ScheduleEvent] = []
        while let event = iterator.next() {
            if event.end >= start { events.append(event) }
        }
        return events
    }

    /// The element's event with the given element-local occurrence index, or nil when the index is
    /// negative or the element ends before it.
    public func event(occurrence: Int, calendar: Calendar) -> ScheduleEvent? {
        guard occurrence >= 0 else { return nil }
        var iterator = ScheduleElementEventIterator(element: self, calendar: calendar, limit: nil)
        guard iterator.skip(eventsStartingBefore: nil, atMost: occurrence) == occurrence else { return nil }
        return iterator.next()
    }

    /// An upper bound on any event's length, in seconds: events that start more than this before a
    /// query start cannot reach it. All-day events last at most 25 hours; two days leaves room for
    /// any time zone's offset change.
    var longestEventSeconds: Double {
        switch duration {
        case .allDay: 2 * 86_400
        case .seconds(let seconds): seconds
        }
    }

    /// The event that starts at `start`: all-day events end at 23:59:59 local time, fixed ones at
    /// start + duration.
    func makeEvent(start: Date, occurrence: Int, calendar: Calendar) -> ScheduleEvent {
        let end =
            switch duration {
            case .allDay: calendar.lastSecondOfDay(startingAt: start)
            case .seconds(let seconds): start.addingTimeInterval(seconds)
            }
        return ScheduleEvent(start: start, end: end, occurrence: occurrence, element: self)
    }

    /// Whether an event starting at `start` comes before `limit`: `start < limit`, or, for all-day
    /// events, `start` on the same local day as `limit − 1 s` ([CK] `isEventStart(_:beforeLimit:)`).
    func isEventStart(_ start: Date, beforeLimit limit: Date, calendar: Calendar) -> Bool {
        if start < limit { return true }
        guard duration == .allDay else { return false }
        return calendar.isDateQuickly(start, inSameDayAs: limit.addingTimeInterval(-1))
    }
}
