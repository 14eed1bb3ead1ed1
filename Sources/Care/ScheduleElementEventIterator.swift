import Foundation

/// Produces an element's events in order, from its first event, by CareKit's iterative rule, and
/// skips quickly over events a query does not need.
struct ScheduleElementEventIterator {
    let element: ScheduleElement
    let calendar: Calendar
    /// Events stop at this limit, by the same rule as the element's end (see
    /// ``ScheduleElement/isEventStart(_:beforeLimit:calendar:)``); nil for no limit.
    let limit: Date?
    /// The next event's start, or nil when the events are exhausted.
    private var nextStart: Date?
    /// The element-local occurrence index of the next event.
    private(set) var nextOccurrence = 0
    /// The time zone's first offset change after the last jump's start, kept because looking it
    /// up is one of the costliest calendar calls and starts only move forward.
    private var offsetChange: (after: Date, at: Date?)?

    init(element: ScheduleElement, calendar: Calendar, limit: Date?) {
        self.element = element
        self.calendar = calendar
        self.limit = limit
        self.nextStart = element.start
    }

    /// The next event's start without producing it, or nil when there is none.
    var peekStart: Date? {
        guard let start = nextStart, isWithinLimits(start) else { return nil }
        return start
    }

    mutating func next() -> ScheduleEvent? {
        guard let start = peekStart else {
            nextStart = nil
            return nil
        }
        let event = element.makeEvent(start: start, occurrence: nextOccurrence, calendar: calendar)
        advance(from: start)
        return event
    }

    /// Skips, without building them, the events that start before `threshold` (if given), at most
    /// `maximumCount` of them. Returns how many were skipped.
    ///
    /// Within a stretch where the time zone's UTC offset does not change, an interval without months
    /// or years is a fixed number of seconds, so k iterative steps equal one jump of k·step: the jump
    /// stops short of the next offset transition, and the step across it is taken by the calendar as
    /// usual. The result is therefore exactly the iterative one, only faster.
    mutating func skip(eventsStartingBefore threshold: Date?, atMost maximumCount: Int = .max) -> Int {
        var skipped = 0
        while skipped < maximumCount, let start = peekStart, threshold.map({ start < $0 }) ?? true {
            if let jump = jumpableSteps(from: start, before: threshold, atMost: maximumCount - skipped) {
                nextStart = jump.start
                nextOccurrence += jump.steps
                skipped += jump.steps
            } else {
                advance(from: start)
                skipped += 1
            }
        }
        return skipped
    }

    private mutating func jumpableSteps(
        from start: Date, before threshold: Date?, atMost maximumCount: Int
    ) -> (steps: Int, start: Date)? {
        guard let step = element.interval.fixedLengthSeconds,
              // Calendar arithmetic on sub-second starts may round differently from plain addition.
              start.timeIntervalSinceReferenceDate.rounded() == start.timeIntervalSinceReferenceDate,
              // An all-day start is a fixed point of the step only at 00:00:00; on a day whose
              // midnight does not exist it is 01:00, and the next start returns to 00:00.
              element.duration != .allDay || isLocalMidnight(start)
        else { return nil }
        let bound = [threshold, element.end, limit, nextOffsetChange(after: start)]
            .compactMap { $0 }.reduce(ScheduleElement.horizon, min)
        // Events start + k·step for k = 0…steps must all start before `bound`; jump to the last one.
        let steps = min(Double(maximumCount), (bound.timeIntervalSince(start) / step).rounded(.up) - 1)
        guard steps >= 1 else { return nil }
        let target = start.addingTimeInterval(steps * step)
        guard target < bound,
              calendar.timeZone.secondsFromGMT(for: target) == calendar.timeZone.secondsFromGMT(for: start)
        else { return nil }
        return (Int(steps), target)
    }

    private mutating func nextOffsetChange(after date: Date) -> Date? {
        if let cached = offsetChange, cached.after <= date, cached.at.map({ date < $0 }) ?? true {
            return cached.at
        }
        let change = calendar.timeZone.nextDaylightSavingTimeTransition(after: date)
        offsetChange = (date, change)
        return change
    }

    /// Local wall time 00:00:00 (days are 86 400 local seconds in every Foundation calendar).
    private func isLocalMidnight(_ date: Date) -> Bool {
        let local = date.timeIntervalSince1970 + Double(calendar.timeZone.secondsFromGMT(for: date))
        return local.truncatingRemainder(dividingBy: 86_400) == 0
    }

    private func isWithinLimits(_ start: Date) -> Bool {
        guard start <= ScheduleElement.horizon else { return false }
        if let end = element.end, !element.isEventStart(start, beforeLimit: end, calendar: calendar) {
            return false
        }
        if let limit, !element.isEventStart(start, beforeLimit: limit, calendar: calendar) {
            return false
        }
        return true
    }

    private mutating func advance(from start: Date) {
        nextOccurrence += 1
        // [CK] OCKScheduleElement.computeEventsWhile: event k+1 is built from event k's start.
        guard let date = calendar.date(byAdding: element.interval.dateComponents, to: start) else {
            nextStart = nil
            return
        }
        let next = element.duration == .allDay ? calendar.startOfDayQuickly(for: date) : date
        // A valid interval always moves forward; stopping otherwise makes a loop impossible.
        nextStart = next > start ? next : nil
    }
}
