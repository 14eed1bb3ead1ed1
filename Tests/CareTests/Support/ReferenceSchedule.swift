import Foundation

@testable import Care

/// A deliberately naive rendering of CareKit's schedule rules, used as the oracle for property
/// tests: every element iterated event by event from its start, merged by sorting.
enum ReferenceSchedule {
    static func events(_ schedule: Schedule, from start: Date, to end: Date, calendar: Calendar) -> [ScheduleEvent] {
        var all: [(event: ScheduleEvent, element: Int, local: Int)] = []
        for (index, element) in schedule.elements.enumerated() {
            var date = element.start
            var local = 0
            while true {
                let eventStart = element.duration == .allDay ? calendar.startOfDay(for: date) : date
                guard isBefore(eventStart, element.end, element, calendar), isBefore(eventStart, end, element, calendar)
                else { break }
                let eventEnd =
                    switch element.duration {
                    case .allDay: calendar.date(byAdding: DateComponents(day: 1, second: -1), to: eventStart)!
                    case .seconds(let seconds): eventStart.addingTimeInterval(seconds)
                    }
                all.append(
                    (ScheduleEvent(start: eventStart, end: eventEnd, occurrence: 0, element: element), index, local))
                date = calendar.date(byAdding: element.interval.dateComponents, to: eventStart)!
                local += 1
            }
        }
        all.sort { ($0.event.start, $0.element, $0.local) < ($1.event.start, $1.element, $1.local) }
        return all.enumerated()
            .map { ScheduleEvent(start: $1.event.start, end: $1.event.end, occurrence: $0, element: $1.event.element) }
            .filter { $0.end >= start && ($0.element.end ?? .distantFuture) > start }
    }

    private static func isBefore(_ start: Date, _ limit: Date?, _ element: ScheduleElement, _ calendar: Calendar)
        -> Bool
    {
        guard let limit else { return true }
        return start < limit
            || (element.duration == .allDay && calendar.isDate(start, inSameDayAs: limit.addingTimeInterval(-1)))
    }
}
