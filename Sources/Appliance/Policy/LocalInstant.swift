import Foundation

extension Calendar {
    /// The first instant of `day`'s local day at which the wall clock reads `time` or later.
    ///
    /// This settles the two DST cases deliberately: a time that occurs twice (the hour repeated
    /// when clocks go back) gives its first occurrence, and a time that does not exist (skipped
    /// when clocks go forward) gives the instant the clocks jump, the first moment the wall clock
    /// is past it. Nil when no instant of the day reaches `time` (a day that ends early).
    public func firstInstant(atOrAfter time: TimeOfDay, onDayOf day: Date) -> Date? {
        let start = startOfDay(for: day)
        guard let end = date(byAdding: .day, value: 1, to: start) else { return nil }
        let zone = timeZone
        // The naive instant: the wall time read as if it were UTC; subtracting an offset in
        // force that day gives a candidate, valid when that offset is really in force then.
        let components = dateComponents([.year, .month, .day], from: start)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        guard let midnight = utc.date(from: components) else { return nil }
        let naive = midnight.addingTimeInterval(TimeInterval(time.minutes * 60))
        let offsets = Set([zone.secondsFromGMT(for: start), zone.secondsFromGMT(for: end.addingTimeInterval(-1))])
        let valid = offsets.map { naive.addingTimeInterval(-TimeInterval($0)) }
            .filter { zone.secondsFromGMT(for: $0) == Int(naive.timeIntervalSince($0)) && $0 >= start && $0 < end }
        if let first = valid.min() {
            return first
        }
        // In a gap: the clocks jump over `time`; the transition is the first instant past it.
        guard let transition = zone.nextDaylightSavingTimeTransition(after: start), transition < end,
            TimeOfDay.of(transition, in: self) >= time
        else { return nil }
        return transition
    }
}
