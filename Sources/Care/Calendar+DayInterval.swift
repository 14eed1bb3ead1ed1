import Foundation

extension Calendar {
    /// The local day that contains `date`, as CareKit queries it: from the day's first instant to
    /// one second before the next day (00:00:00 to 23:59:59; 23 or 25 hours minus a second on DST
    /// days).
    ///
    /// An event is on the day when `event.start < interval.end && event.end >= interval.start`, so
    /// an all-day event is on its own day only and a multi-day fixed event is on every day it
    /// overlaps.
    public func dayInterval(containing date: Date) -> DateInterval {
        let start = startOfDayQuickly(for: date)
        return DateInterval(start: start, end: lastSecondOfDay(startingAt: start))
    }

    /// The instant one second before the day after the one starting at `startOfDay` (23:59:59),
    /// CareKit's `date(byAdding: (day: 1, second: -1))`.
    func lastSecondOfDay(startingAt startOfDay: Date) -> Date {
        // The Gregorian calendar always has a next day; the fallback only guards exotic calendars.
        date(byAdding: DateComponents(day: 1, second: -1), to: startOfDay)
            ?? startOfDay.addingTimeInterval(86_399)
    }
}

extension Calendar {
    /// `startOfDay(for:)`, computed from the time zone's UTC offset when no offset change lies
    /// between the day's midnight and `date`, and by `startOfDay(for:)` otherwise. Foundation's
    /// takes several microseconds and schedules need it for every all-day event.
    func startOfDayQuickly(for date: Date) -> Date {
        guard identifier == .gregorian || identifier == .iso8601 else { return startOfDay(for: date) }
        let offset = timeZone.secondsFromGMT(for: date)
        let local = date.timeIntervalSince1970 + Double(offset)
        let midnight = Date(timeIntervalSince1970: (local / 86_400).rounded(.down) * 86_400 - Double(offset))
        guard timeZone.secondsFromGMT(for: midnight) == offset,
            timeZone.nextDaylightSavingTimeTransition(after: midnight.addingTimeInterval(-1)).map({ $0 > date }) ?? true
        else { return startOfDay(for: date) }
        return midnight
    }

    /// `isDate(_:inSameDayAs:)` by ``startOfDayQuickly(for:)``.
    func isDateQuickly(_ date: Date, inSameDayAs other: Date) -> Bool {
        startOfDayQuickly(for: date) == startOfDayQuickly(for: other)
    }
}
