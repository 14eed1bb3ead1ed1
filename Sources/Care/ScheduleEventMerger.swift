import Foundation

/// Merges the events of a schedule's elements into one chronological stream numbered with global
/// occurrence indices: the rank since the schedule began, ties broken by element order, then by
/// element-local order ([CK] `OCKSchedule.events(from:to:)`).
struct ScheduleEventMerger {
    private var iterators: [ScheduleElementEventIterator]
    private var nextOccurrence: Int

    /// - Parameters:
    ///   - limit: Events stop at this limit (exclusive on start, with the all-day rule).
    ///   - threshold: Events starting before this are skipped but still counted, so later indices
    ///     stay global. Every element skips by the same threshold, so the skipped events are exactly
    ///     the first ones of the merged order.
    init(elements: [ScheduleElement], calendar: Calendar, limit: Date, skippingEventsBefore threshold: Date) {
        var iterators = elements.map { ScheduleElementEventIterator(element: $0, calendar: calendar, limit: limit) }
        let skipped = iterators.indices.reduce(0) { $0 + iterators[$1].skip(eventsStartingBefore: threshold) }
        self.init(positioned: iterators, nextOccurrence: skipped)
    }

    /// Continues from iterators that have already skipped `nextOccurrence` events, all of which
    /// start before any event the iterators have left.
    init(positioned iterators: [ScheduleElementEventIterator], nextOccurrence: Int) {
        self.iterators = iterators
        self.nextOccurrence = nextOccurrence
    }

    mutating func next() -> ScheduleEvent? {
        var earliest: (index: Int, start: Date)?
        for index in iterators.indices {
            guard let start = iterators[index].peekStart else { continue }
            // Strictly earlier only: on a tie the lower element index wins.
            if earliest.map({ start < $0.start }) ?? true {
                earliest = (index, start)
            }
        }
        guard let earliest, let event = iterators[earliest.index].next() else { return nil }
        defer { nextOccurrence += 1 }
        return event.renumbered(nextOccurrence)
    }
}
