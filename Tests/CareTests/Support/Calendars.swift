import Foundation

/// Gregorian calendars pinned to a time zone, so results never depend on the host.
enum Calendars {
    static let losAngeles = gregorian("America/Los_Angeles")
    static let utc = gregorian("UTC")

    static func gregorian(_ identifier: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: identifier)!
        return calendar
    }
}

extension Calendar {
    /// A local wall-clock time in this calendar's zone.
    func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    /// Local components of an instant, for readable expectations.
    func parts(_ date: Date) -> [Int] {
        let c = dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return [c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!]
    }

    /// Whole local days from `from`'s day to `to`'s day.
    func daysBetween(_ from: Date, _ to: Date) -> Int {
        dateComponents([.day], from: startOfDay(for: from), to: startOfDay(for: to)).day!
    }
}
