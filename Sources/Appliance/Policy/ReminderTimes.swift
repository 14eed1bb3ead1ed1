import Foundation

/// When the reminder chime sounds on a day a measurement is due: from `first`, every `interval`
/// minutes, while not later than `last` (local wall-clock times).
public struct ReminderTimes: Hashable, Sendable {
    public let first: TimeOfDay
    /// Minutes between reminders, at least 1.
    public let intervalMinutes: Int
    public let last: TimeOfDay

    /// 09:00, then every 2 hours until 20:00: 09:00, 11:00, 13:00, 15:00, 17:00, 19:00.
    public static let standard = ReminderTimes(
        first: TimeOfDay(hour: 9), intervalMinutes: 120, last: TimeOfDay(hour: 20))

    /// - Precondition: `intervalMinutes >= 1` and `first <= last`.
    public init(first: TimeOfDay, intervalMinutes: Int, last: TimeOfDay) {
        precondition(intervalMinutes >= 1 && first <= last, "reminders need a positive interval and first <= last")
        self.first = first
        self.intervalMinutes = intervalMinutes
        self.last = last
    }

    /// The reminder times of a day, in order.
    public var times: [TimeOfDay] {
        stride(from: first.minutes, through: last.minutes, by: intervalMinutes).map {
            TimeOfDay(hour: $0 / 60, minute: $0 % 60)
        }
    }
}
