import Foundation

/// A local wall-clock time of day to the minute, `09:00`, as reminders and quiet hours are written.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes since local midnight, 0..<1440.
    public let minutes: Int

    /// - Precondition: `hour` in 0...23, `minute` in 0...59.
    public init(hour: Int, minute: Int = 0) {
        precondition((0...23).contains(hour) && (0...59).contains(minute), "not a time of day: \(hour):\(minute)")
        minutes = hour * 60 + minute
    }

    /// Parses `HH:MM` (24-hour, leading zero optional for the hour): `9:00`, `09:00`, `23:59`.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }

    /// `09:00`.
    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.minutes < rhs.minutes
    }

    /// The local time of day of `date` in `calendar`'s zone, to the minute.
    public static func of(_ date: Date, in calendar: Calendar) -> TimeOfDay {
        let components = calendar.dateComponents([.hour, .minute], from: date)
        return TimeOfDay(hour: components.hour ?? 0, minute: components.minute ?? 0)
    }
}
