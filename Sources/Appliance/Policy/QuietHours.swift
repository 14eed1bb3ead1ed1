import Foundation

/// A daily window of local time in which the buzzer stays silent, `21:00-08:00`. The window
/// includes its start and excludes its end; a start after the end crosses midnight.
public struct QuietHours: Hashable, Sendable, CustomStringConvertible {
    public let start: TimeOfDay
    public let end: TimeOfDay

    /// - Precondition: `start != end` (an empty or a whole-day window is better said another way:
    ///   no quiet hours, or no reminders).
    public init(start: TimeOfDay, end: TimeOfDay) {
        precondition(start != end, "quiet hours must not start and end at the same time")
        self.start = start
        self.end = end
    }

    /// Parses `HH:MM-HH:MM`; nil when malformed or when both ends are equal.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let start = TimeOfDay(parts[0].trimmingCharacters(in: .whitespaces)),
            let end = TimeOfDay(parts[1].trimmingCharacters(in: .whitespaces)), start != end
        else { return nil }
        self.init(start: start, end: end)
    }

    /// Whether the window crosses local midnight (`21:00-08:00`).
    public var crossesMidnight: Bool { start > end }

    /// Whether a local time of day falls inside the window.
    public func contains(_ time: TimeOfDay) -> Bool {
        crossesMidnight ? (time >= start || time < end) : (time >= start && time < end)
    }

    /// Whether `date`, read as local time in `calendar`'s zone, falls inside the window.
    ///
    /// Local time is what the patient's wall clock shows, so on a DST day the window keeps its
    /// wall-clock ends (its length in hours changes with the day).
    public func contains(_ date: Date, in calendar: Calendar) -> Bool {
        contains(TimeOfDay.of(date, in: calendar))
    }

    /// `21:00-08:00`.
    public var description: String { "\(start)-\(end)" }
}
