import Foundation

extension Schedule {
    /// A schedule with one event a day at a fixed local time ([CK] `OCKSchedule.dailyAtTime`).
    ///
    /// The first event is at `hour:minutes` on the *same local day* as `start`, even when that time
    /// has already passed. With `duration: .allDay` the events cover whole days from that day.
    ///
    /// - Parameters:
    ///   - hour: Local hour, 0–23.
    ///   - minutes: Local minute, 0–59.
    ///   - start: Any instant on the first day.
    ///   - end: Exclusive end of the schedule, or nil for never.
    ///   - text: A label for the events.
    ///   - duration: Each event's duration (one hour by default, as in CareKit).
    ///   - targetValues: Goal values for each event's outcome.
    ///   - calendar: The calendar and time zone of "local".
    /// - Throws: ``ScheduleError`` for an invalid time or end.
    public static func dailyAtTime(
        hour: Int, minutes: Int, start: Date, end: Date? = nil, text: String? = nil,
        duration: ScheduleDuration = .hours(1), targetValues: [OutcomeValue] = [], calendar: Calendar
    ) throws(ScheduleError) -> Schedule {
        let first = try firstEvent(hour: hour, minutes: minutes, of: start, calendar: calendar)
        let element = try ScheduleElement(
            start: first, end: end, interval: .days(1), duration: duration, text: text,
            targetValues: targetValues, calendar: calendar)
        return try Schedule(composing: [element])
    }

    /// A schedule with one event a week on a weekday at a fixed local time
    /// ([CK] `OCKSchedule.weeklyAtTime`).
    ///
    /// The first event is on the first `weekday` on or after `start`'s day (`start` itself when it
    /// already is that weekday), at `hours:minutes`.
    ///
    /// - Parameters:
    ///   - weekday: 1 = Sunday … 7 = Saturday (Gregorian).
    ///   - hours: Local hour, 0–23.
    ///   - minutes: Local minute, 0–59.
    ///   - start: The earliest day.
    ///   - end: Exclusive end of the schedule, or nil for never.
    ///   - targetValues: Goal values for each event's outcome.
    ///   - text: A label for the events.
    ///   - duration: Each event's duration (one hour by default).
    ///   - calendar: The calendar and time zone of "local".
    /// - Throws: ``ScheduleError`` for an invalid weekday, time or end.
    public static func weeklyAtTime(
        weekday: Int, hours: Int, minutes: Int, start: Date, end: Date? = nil,
        targetValues: [OutcomeValue] = [], text: String? = nil, duration: ScheduleDuration = .hours(1),
        calendar: Calendar
    ) throws(ScheduleError) -> Schedule {
        guard (1...7).contains(weekday),
            let day = calendar.date(bySetting: .weekday, value: weekday, of: start)
        else { throw .invalidWeekday(weekday) }
        let first = try firstEvent(hour: hours, minutes: minutes, of: day, calendar: calendar)
        let element = try ScheduleElement(
            start: first, end: end, interval: .weeks(1), duration: duration, text: text,
            targetValues: targetValues, calendar: calendar)
        return try Schedule(composing: [element])
    }

    private static func firstEvent(hour: Int, minutes: Int, of day: Date, calendar: Calendar) throws(ScheduleError)
        -> Date
    {
        guard (0...23).contains(hour), (0...59).contains(minutes),
            let date = calendar.date(bySettingHour: hour, minute: minutes, second: 0, of: day)
        else { throw .invalidTimeOfDay(hour: hour, minutes: minutes) }
        return date
    }
}
