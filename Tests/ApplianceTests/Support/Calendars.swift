import Foundation

/// Fixed-zone calendars and instants, so results never depend on the host's zone.
enum Zones {
    static func calendar(_ identifier: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: identifier)!
        return calendar
    }

    /// Clocks go forward 2026-03-08 02:00 → 03:00, back 2026-11-01 02:00 → 01:00.
    static let losAngeles = calendar("America/Los_Angeles")
    static let utc = calendar("UTC")

    /// An instant from an ISO 8601 text with offset, `2026-03-08T10:00:00Z`.
    static func instant(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }
}

extension Calendar {
    /// The instant of a local wall time (a time that exists once).
    func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }
}
