import Foundation

/// How instants are written: ISO 8601 with the UTC offset of a zone (`2026-06-07T08:00:00+02:00`)
/// for output meant to be read back, local wall-clock forms for people.
enum LocalTime {
    /// `2026-06-07T08:00:00+02:00` (`Z` in UTC), in `calendar`'s zone.
    static func iso8601(_ date: Date, calendar: Calendar) -> String {
        let c = components(date, calendar)
        let offset = calendar.timeZone.secondsFromGMT(for: date)
        let zone: String
        if offset == 0 {
            zone = "Z"
        } else {
            let minutes = abs(offset) / 60
            zone = (offset < 0 ? "-" : "+") + pad(minutes / 60) + ":" + pad(minutes % 60)
        }
        return day(c) + "T" + pad(c.hour ?? 0) + ":" + pad(c.minute ?? 0) + ":" + pad(c.second ?? 0) + zone
    }

    /// `2026-06-07`, the local day of `date`.
    static func day(_ date: Date, calendar: Calendar) -> String {
        day(components(date, calendar))
    }

    /// `2026-06-07T08:00` (seconds added when not zero): local time without offset, as the element
    /// spec takes it.
    static func format(_ date: Date, calendar: Calendar) -> String {
        let c = components(date, calendar)
        var text = day(c) + "T" + pad(c.hour ?? 0) + ":" + pad(c.minute ?? 0)
        if let second = c.second, second != 0 { text += ":" + pad(second) }
        return text
    }

    /// `08:00`, the local time of day.
    static func timeOfDay(_ date: Date, calendar: Calendar) -> String {
        let c = components(date, calendar)
        return pad(c.hour ?? 0) + ":" + pad(c.minute ?? 0)
    }

    private static func components(_ date: Date, _ calendar: Calendar) -> DateComponents {
        calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    }

    private static func day(_ c: DateComponents) -> String {
        let year = c.year ?? 0
        return (year < 1000 ? String(format: "%04d", year) : String(year)) + "-" + pad(c.month ?? 0) + "-"
            + pad(c.day ?? 0)
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
