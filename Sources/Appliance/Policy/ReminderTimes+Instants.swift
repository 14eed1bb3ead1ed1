import Foundation

extension ReminderTimes {
    /// The reminder instants of the local day containing `day`, in order and without repeats
    /// (see `Calendar.firstInstant(atOrAfter:onDayOf:)` for DST days: a reminder in the hour
    /// clocks skip sounds when they jump, one in the repeated hour sounds once).
    public func instants(onDayOf day: Date, calendar: Calendar) -> [Date] {
        var result: [Date] = []
        for time in times {
            guard let instant = calendar.firstInstant(atOrAfter: time, onDayOf: day) else { continue }
            if result.last.map({ instant > $0 }) ?? true {
                result.append(instant)
            }
        }
        return result
    }
}
