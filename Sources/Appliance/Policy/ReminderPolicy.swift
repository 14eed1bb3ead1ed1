import Foundation

/// When the reminder chime sounds: at the reminder instants of a day a measurement is due, once
/// each, never inside quiet hours, and not for a reminder missed by more than `grace` (after a
/// suspend, a clock step forward or a restart the LED still shows "due", without a burst of
/// stale chimes).
public struct ReminderPolicy: Sendable {
    public let reminders: ReminderTimes
    public let quietHours: QuietHours?
    /// The reminders' calendar and time zone.
    public let calendar: Calendar
    /// How late a reminder may still sound, in seconds.
    public let grace: TimeInterval

    /// Ten minutes: longer than any pause of the daemon's loop, shorter than any sensible
    /// reminder interval.
    public static let standardGrace: TimeInterval = 600

    public init(
        reminders: ReminderTimes, quietHours: QuietHours?, calendar: Calendar, grace: TimeInterval = standardGrace
    ) {
        self.reminders = reminders
        self.quietHours = quietHours
        self.calendar = calendar
        self.grace = grace
    }

    /// Whether `date` is inside quiet hours.
    public func isQuiet(_ date: Date) -> Bool {
        quietHours?.contains(date, in: calendar) ?? false
    }

    /// The reminder to sound at `now`, if any: the latest reminder instant at or before `now`,
    /// later than `lastSounded` (so each sounds once, and a clock stepped back does not repeat
    /// one), at most `grace` ago, with neither it nor `now` inside quiet hours.
    ///
    /// The caller decides whether a measurement is due and the clock trusted.
    public func reminderToSound(at now: Date, lastSounded: Date?) -> Date? {
        reminderToSound(at: now, lastSounded: lastSounded, today: reminders.instants(onDayOf: now, calendar: calendar))
    }

    /// `reminderToSound(at:lastSounded:)` with the day's instants already computed (the daemon
    /// keeps them for the day instead of computing them on every wake).
    public func reminderToSound(at now: Date, lastSounded: Date?, today instants: [Date]) -> Date? {
        guard let latest = instants.last(where: { $0 <= now }),
            lastSounded.map({ latest > $0 }) ?? true,
            now.timeIntervalSince(latest) <= grace,
            !isQuiet(latest), !isQuiet(now)
        else { return nil }
        return latest
    }
}
