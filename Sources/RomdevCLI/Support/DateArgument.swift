import Foundation

/// A date or date-time as typed on the command line, before a time zone turns it into an instant.
///
/// Accepted forms (ISO 8601): `2026-06-07`, `2026-06-07T08:00`, `2026-06-07T08:00:30`, each
/// optionally followed by `Z` or a UTC offset (`+02:00`, `-0500`). Without an offset the time is
/// local to the calendar given to ``date(in:)`` — the store's zone — so parsing needs no store.
public struct DateArgument: Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// True when a time of day was given.
    public let hasTime: Bool
    /// The offset from UTC in seconds when one was given (`Z` is 0); nil for local time.
    public let utcOffsetSeconds: Int?
    /// The text as typed.
    public let description: String

    /// The first day of the Gregorian calendar. Foundation's Gregorian calendar is Julian before
    /// it (1582-10-10 would become 1582-10-20) and has no year 0, so earlier dates are refused
    /// rather than silently moved.
    public static let firstGregorianDay = (year: 1582, month: 10, day: 15)

    /// Parses `text`; nil when it is not one of the accepted forms, names a day that does not
    /// exist (2026-02-30) or comes before ``firstGregorianDay``, or a time out of range.
    public init?(_ text: String) {
        self.init(anyYear: text)
        guard !isBeforeGregorianCalendar else { return nil }
    }

    /// Whether the day comes before ``firstGregorianDay``.
    var isBeforeGregorianCalendar: Bool {
        let first = Self.firstGregorianDay
        return (year, month, day) < (first.year, first.month, first.day)
    }

    private init?(anyYear text: String) {
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count else { return nil }
            var value = 0
            for c in chars[range] {
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        func isChar(_ index: Int, _ c: Character) -> Bool { index < chars.count && chars[index] == c.asciiValue! }

        guard let year = number(0..<4), isChar(4, "-"), let month = number(5..<7), isChar(7, "-"),
            let day = number(8..<10)
        else { return nil }
        var index = 10
        var hour = 0, minute = 0, second = 0, hasTime = false
        if isChar(index, "T") {
            guard let h = number(11..<13), isChar(13, ":"), let m = number(14..<16) else { return nil }
            hour = h
            minute = m
            hasTime = true
            index = 16
            if isChar(index, ":") {
                guard let s = number(17..<19) else { return nil }
                second = s
                index = 19
            }
        }
        var offset: Int?
        if isChar(index, "Z") {
            offset = 0
            index += 1
        } else if isChar(index, "+") || isChar(index, "-") {
            let sign = isChar(index, "-") ? -1 : 1
            guard let oh = number(index + 1..<index + 3) else { return nil }
            var next = index + 3
            if isChar(next, ":") { next += 1 }
            guard let om = number(next..<next + 2), oh <= 18, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
            index = next + 2
        }
        guard index == chars.count, (1...12).contains(month), day >= 1,
            day <= Self.daysInMonth(year: year, month: month), hour < 24, minute < 60, second < 60
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.hasTime = hasTime
        self.utcOffsetSeconds = offset
        self.description = text
    }

    /// The instant: local time in `calendar`'s zone, or the given UTC offset. A local time that
    /// does not exist (in a spring-forward gap) moves forward as `Calendar` decides.
    public func date(in calendar: Calendar) -> Date? {
        var calendar = calendar
        if let utcOffsetSeconds, let zone = TimeZone(secondsFromGMT: utcOffsetSeconds) {
            calendar.timeZone = zone
        }
        return calendar.date(
            from: DateComponents(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }

    /// The first instant of the day named, in `calendar`'s zone (the offset and time are ignored:
    /// a day is always a day of the store's calendar).
    public func startOfDay(in calendar: Calendar) -> Date? {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))
            .map { calendar.startOfDay(for: $0) }
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// For ``ParsedValues`` transforms: the parsed date, or an error saying what is accepted.
    static func parse(_ text: String) throws -> DateArgument {
        guard let date = DateArgument(anyYear: text) else { throw DateArgumentError.malformed }
        guard !date.isBeforeGregorianCalendar else { throw DateArgumentError.beforeGregorianCalendar }
        return date
    }
}

/// A date argument that is not in an accepted form, or too early.
enum DateArgumentError: Error, CustomStringConvertible {
    case malformed
    case beforeGregorianCalendar

    var description: String {
        switch self {
        case .malformed:
            "expected an ISO 8601 date such as 2026-06-07, 2026-06-07T08:00 or 2026-06-07T08:00+02:00"
        case .beforeGregorianCalendar:
            "dates before 1582-10-15, the first day of the Gregorian calendar, are not supported"
        }
    }
}
