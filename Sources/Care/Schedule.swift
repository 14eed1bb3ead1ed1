import Foundation

/// A care task's schedule: one or more elements whose events merge into one numbered sequence.
public struct Schedule: Hashable, Sendable {
    /// The elements, sorted by start. The sort is stable, so elements with equal starts keep their
    /// given order: occurrence indices are stored with outcomes, so the order must never change.
    public let elements: [ScheduleElement]

    /// Composes a schedule from elements.
    ///
    /// - Throws: ``ScheduleError/noElements`` for an empty array.
    public init(composing elements: [ScheduleElement]) throws(ScheduleError) {
        guard !elements.isEmpty else { throw .noElements }
        // Sorting indices as a tie-breaker makes the sort stable whatever algorithm `sorted` uses.
        self.elements = elements.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
    }

    /// The most events a schedule may have on one day: every 15 minutes. Denser schedules are no
    /// care plan, and their events would swamp every query (a task every second has 86,400 a day).
    public static let maximumEventsPerDay = 96

    /// The most events the schedule can have on a 24-hour day: one per element for calendar
    /// steps (a day or longer keeps the local time), else 24 hours over the step, rounded up.
    public var eventsPerDayBound: Int {
        elements.reduce(0) { total, element in
            // Months and years have no fixed length, but are longer than a day.
            let step = element.interval.fixedLengthSeconds ?? 86_400
            let perDay: Double = step >= 86_400 ? 1 : (86_400 / step).rounded(.up)
            return total + Int(perDay)
        }
    }

    /// Refuses a schedule denser than ``maximumEventsPerDay``.
    ///
    /// - Throws: ``ScheduleError/tooManyEventsPerDay(_:maximum:)``.
    public func checkEventRate() throws(ScheduleError) {
        let bound = eventsPerDayBound
        if bound > Self.maximumEventsPerDay { throw .tooManyEventsPerDay(bound, maximum: Self.maximumEventsPerDay) }
    }

    /// The earliest element start: the first possible event.
    public var startDate: Date {
        // Never empty (checked by the initializer) and sorted by start.
        elements[0].start
    }

    /// The latest element end, or nil when some element never ends.
    public var endDate: Date? {
        var latest: Date?
        for element in elements {
            guard let end = element.end else { return nil }
            latest = max(latest ?? end, end)
        }
        return latest
    }

    /// The schedule's events that overlap a query window, with global occurrence indices.
    ///
    /// The lower bound is inclusive on event ends, the upper bound exclusive on event starts (with
    /// the all-day rule, see ``ScheduleElement/events(from:to:calendar:)``). As in CareKit, events
    /// of an element that ended at or before `start` are dropped even when their all-day window
    /// reaches past `start`.
    ///
    /// - Parameters:
    ///   - start: Inclusive lower bound, compared with event ends.
    ///   - end: Exclusive upper bound, compared with event starts.
    ///   - calendar: The calendar used to build the elements.
    /// - Returns: Events ordered by start (ties by element order); empty when `start >= end`.
    public func events(from start: Date, to end: Date, calendar: Calendar) -> [ScheduleEvent] {
        var events: [ScheduleEvent] = []
        forEachEvent(from: start, to: end, calendar: calendar) {
            events.append($0)
            return true
        }
        return events
    }

    /// Whether ``events(from:to:calendar:)`` would return any event, without building the others.
    func hasEvents(from start: Date, to end: Date, calendar: Calendar) -> Bool {
        var found = false
        forEachEvent(from: start, to: end, calendar: calendar) { _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with each event of ``events(from:to:calendar:)`` in order while it returns true.
    private func forEachEvent(from start: Date, to end: Date, calendar: Calendar, _ body: (ScheduleEvent) -> Bool) {
        guard start < end else { return }
        let longest = elements.map(\.longestEventSeconds).max() ?? 0
        var merger = ScheduleEventMerger(
            elements: elements, calendar: calendar, limit: end,
            skippingEventsBefore: start.addingTimeInterval(-longest))
        while let event = merger.next() {
            // [CK] OCKSchedule.events: `element.end ?? distantFuture > start`.
            if event.end >= start, event.element.end.map({ $0 > start }) ?? true, !body(event) {
                return
            }
        }
    }

    /// The event with a global occurrence index, or nil when the index is negative or the schedule
    /// ends before it (CareKit traps on that in `subscript`).
    public func event(forOccurrenceIndex occurrence: Int, calendar: Calendar) -> ScheduleEvent? {
        guard occurrence >= 0 else { return nil }
        if elements.count == 1 {
            return elements[0].event(occurrence: occurrence, calendar: calendar)
        }
        // Merging event by event would take time proportional to `occurrence`. Instead, find an
        // instant `low` with at most `occurrence` events before it and more than that before
        // `low + 1 s` (galloping, then bisecting), and merge from there. The iterators only move
        // forward: each probe continues from a copy of the iterators positioned at `low`.
        var iterators = elements.map { ScheduleElementEventIterator(element: $0, calendar: calendar, limit: nil) }
        var countBeforeLow = 0
        func count(before date: Date, from positioned: [ScheduleElementEventIterator]) -> (
            Int, [ScheduleElementEventIterator]
        ) {
            var probe = positioned
            let skipped = probe.indices.reduce(0) { $0 + probe[$1].skip(eventsStartingBefore: date) }
            return (countBeforeLow + skipped, probe)
        }
        let beyondHorizon = ScheduleElement.horizon.addingTimeInterval(1)
        var low = startDate
        var span: TimeInterval = 3600
        var high: Date
        while true {
            high = min(low.addingTimeInterval(span), beyondHorizon)
            let (count, probe) = count(before: high, from: iterators)
            if count > occurrence { break }
            guard high < beyondHorizon else { return nil }
            (low, countBeforeLow, iterators) = (high, count, probe)
            span *= 2
        }
        while high.timeIntervalSince(low) > 1 {
            let middle = low.addingTimeInterval((high.timeIntervalSince(low) / 2).rounded(.down))
            let (count, probe) = count(before: middle, from: iterators)
            if count <= occurrence {
                (low, countBeforeLow, iterators) = (middle, count, probe)
            } else {
                high = middle
            }
        }
        var merger = ScheduleEventMerger(positioned: iterators, nextOccurrence: countBeforeLow)
        while let event = merger.next() {
            if event.occurrence == occurrence { return event }
        }
        return nil
    }

    /// Whether the schedule is live on the local day containing `date` ([CK] `exists(onDay:)`, used
    /// by adherence): it has started by 23:59:59 of that day and, when finite, ends after 00:00.
    public func exists(onDay date: Date, calendar: Calendar) -> Bool {
        exists(on: calendar.dayInterval(containing: date))
    }

    /// ``exists(onDay:calendar:)`` for a day already given as ``Foundation/Calendar/dayInterval(containing:)``.
    func exists(on day: DateInterval) -> Bool {
        guard let end = endDate else { return startDate <= day.end }
        return startDate < day.end && end > day.start
    }
}

extension Schedule: Codable {
    private enum CodingKeys: String, CodingKey {
        case elements
    }

    /// Decodes a schedule, refusing one without elements.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let elements = try container.decode([ScheduleElement].self, forKey: .elements)
        do {
            try self.init(composing: elements)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }
}
