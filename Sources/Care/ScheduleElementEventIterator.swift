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
    /// The time zone's first offset change after the last date asked about, kept because looking
    /// it up is one of the costliest calendar calls and dates asked about mostly move forward.
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
    /// For intervals without months or years, k iterative steps equal one calendar addition of k
    /// intervals as long as no UTC offset change alters a step: seconds, minutes and hours are
    /// absolute, so offset changes never do; whole days and weeks keep the wall time, so only a
    /// change whose skipped or repeated wall times include the events' time of day does. The jump
    /// stops short of such a change and the step across it is taken one at a time, so the result is
    /// exactly the iterative one, only faster.
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
        let interval = element.interval
        guard let step = interval.fixedLengthSeconds,
            // Calendar arithmetic on sub-second starts may round differently from plain addition.
            start.timeIntervalSinceReferenceDate.rounded() == start.timeIntervalSinceReferenceDate,
            // An all-day start is a fixed point of the step only at 00:00:00; on a day whose
            // midnight does not exist it is 01:00, and the next start returns to 00:00.
            element.duration != .allDay || isLocalMidnight(start)
        else { return nil }
        // Past the `maximumCount`-th step (allowing a day for offset changes) nothing is needed.
        let reach = start.addingTimeInterval(min(Double(maximumCount) * step + 86_400, 1e13))
        var bound = [threshold, element.end, limit, reach].compactMap { $0 }.reduce(ScheduleElement.horizon, min)
        if let change = firstOffsetChangeAlteringSteps(after: start, before: bound) {
            bound = change
        }
        // Estimated from the absolute length, then corrected: offset changes that do not alter the
        // wall time still move later starts by up to their size.
        var steps = Int(min(Double(maximumCount), (bound.timeIntervalSince(start) / step).rounded(.up) - 1))
        while steps >= 1 {
            guard let target = calendar.date(byAdding: interval.dateComponents(times: steps), to: start) else {
                return nil
            }
            if target < bound { return target > start ? (steps, target) : nil }
            steps -= 1
        }
        return nil
    }

    /// The first UTC offset change after `start` and before `bound` that could make k single steps
    /// differ from one addition of k intervals; nil when there is none.
    private mutating func firstOffsetChangeAlteringSteps(after start: Date, before bound: Date) -> Date? {
        let interval = element.interval
        let keepsWallTime = interval.seconds == 0 && interval.minutes == 0 && interval.hours == 0
        let absolute = interval.days == 0 && interval.weeks == 0
        if absolute { return nil }
        let zone = calendar.timeZone
        let wallTime = localSecondsOfDay(start.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: start)))
        var after = start
        while let change = nextOffsetChange(after: after), change < bound {
            guard keepsWallTime else { return change }
            let offsetBefore = zone.secondsFromGMT(for: change.addingTimeInterval(-1))
            let shift = zone.secondsFromGMT(for: change) - offsetBefore
            // Wall times skipped (shift > 0) or repeated (shift < 0) that day:
            // [lowest, lowest + |shift|) in local seconds of the day.
            let reached = change.timeIntervalSince1970 + Double(offsetBefore)
            let lowest = localSecondsOfDay(reached + Double(min(shift, 0)))
            let distance = localSecondsOfDay(wallTime - lowest)
            if shift != 0, distance < Double(abs(shift)) { return change }
            after = change
        }
        return nil
    }

    private func localSecondsOfDay(_ localSeconds: Double) -> Double {
        let remainder = localSeconds.truncatingRemainder(dividingBy: 86_400)
        return remainder < 0 ? remainder + 86_400 : remainder
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
