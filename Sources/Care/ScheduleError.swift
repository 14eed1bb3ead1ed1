import Foundation

/// Why a schedule or schedule element could not be built.
public enum ScheduleError: Error, Hashable, Sendable {
    /// The element's end is not after its start.
    case endNotAfterStart(start: Date, end: Date)
    /// The interval has a negative component, no positive component, or a component too large.
    case invalidInterval(ScheduleInterval)
    /// An all-day element needs an interval of whole days (days, weeks, months, years).
    case allDayIntervalNotWholeDays(ScheduleInterval)
    /// A fixed duration must be from zero up to ``ScheduleInterval/maximumYears`` years.
    case invalidDuration(seconds: Double)
    /// A schedule needs at least one element.
    case noElements
    /// The time of day (or weekday) could not be set on the start date in this calendar.
    case invalidTimeOfDay(hour: Int, minutes: Int)
    /// A weekday must be 1 (Sunday) to 7 (Saturday).
    case invalidWeekday(Int)
    /// The schedule can have this many events a day, more than `maximum`.
    case tooManyEventsPerDay(Int, maximum: Int)
}

extension ScheduleError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .endNotAfterStart(let start, let end):
            "schedule element end \(end.iso8601Text) is not after its start \(start.iso8601Text)"
        case .invalidInterval(let interval):
            "schedule interval \(interval) must have no negative component, at least one positive"
                + " component, and be at most \(ScheduleInterval.maximumYears) years long"
        case .allDayIntervalNotWholeDays(let interval):
            "an all-day schedule element needs an interval of whole days, weeks, months or years, got \(interval)"
        case .invalidDuration(let seconds):
            "schedule duration must be from 0 seconds to \(ScheduleInterval.maximumYears) years, got \(seconds) seconds"
        case .noElements:
            "a schedule needs at least one element"
        case .invalidTimeOfDay(let hour, let minutes):
            "time of day \(hour):\(minutes < 10 ? "0" : "")\(minutes) is not valid"
        case .invalidWeekday(let weekday):
            "weekday must be 1 (Sunday) to 7 (Saturday), got \(weekday)"
        case .tooManyEventsPerDay(let count, let maximum):
            "a schedule may have at most \(maximum) events a day (one every 15 minutes); this one has up to \(count)"
        }
    }
}
