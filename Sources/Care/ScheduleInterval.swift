import Foundation

/// The calendar step between two consecutive events of a schedule element.
///
/// The components are added with `Calendar.date(byAdding:to:)`, so days, weeks, months and years
/// keep the local time of day across DST changes, while seconds, minutes and hours are absolute.
/// The components persisted are those of CareKit: seconds, minutes, hours, days, weeks
/// (`weekOfYear`), months and years.
///
/// A valid interval has no negative component and at least one positive one, so every step moves
/// time forward in any calendar. CareKit only checks that the interval moves forward from "now";
/// requiring non-negative components makes that true from every date.
public struct ScheduleInterval: Hashable, Sendable {
    /// Seconds, added as absolute time.
    public var seconds: Int
    /// Minutes, added as absolute time.
    public var minutes: Int
    /// Hours, added as absolute time.
    public var hours: Int
    /// Calendar days: the same local time on a later day.
    public var days: Int
    /// Calendar weeks (`weekOfYear`).
    public var weeks: Int
    /// Calendar months; the day of month is clamped to the month's length (Jan 31 + 1 month = Feb 28).
    public var months: Int
    /// Calendar years.
    public var years: Int

    /// The longest step allowed, in years. It keeps every step far inside the range that `Calendar`
    /// computes reliably; no care plan repeats less often.
    public static let maximumYears = 1000

    /// Creates an interval from calendar components. Use ``isValid`` (or let
    /// ``ScheduleElement/init(start:end:interval:duration:text:targetValues:calendar:)`` check it).
    public init(
        seconds: Int = 0, minutes: Int = 0, hours: Int = 0, days: Int = 0,
        weeks: Int = 0, months: Int = 0, years: Int = 0
    ) {
        self.seconds = seconds
        self.minutes = minutes
        self.hours = hours
        self.days = days
        self.weeks = weeks
        self.months = months
        self.years = years
    }

    /// Every `n` seconds.
    public static func seconds(_ n: Int) -> ScheduleInterval { ScheduleInterval(seconds: n) }
    /// Every `n` minutes.
    public static func minutes(_ n: Int) -> ScheduleInterval { ScheduleInterval(minutes: n) }
    /// Every `n` hours.
    public static func hours(_ n: Int) -> ScheduleInterval { ScheduleInterval(hours: n) }
    /// Every `n` calendar days.
    public static func days(_ n: Int) -> ScheduleInterval { ScheduleInterval(days: n) }
    /// Every `n` calendar weeks.
    public static func weeks(_ n: Int) -> ScheduleInterval { ScheduleInterval(weeks: n) }
    /// Every `n` calendar months.
    public static func months(_ n: Int) -> ScheduleInterval { ScheduleInterval(months: n) }
    /// Every `n` calendar years.
    public static func years(_ n: Int) -> ScheduleInterval { ScheduleInterval(years: n) }

    private var components: [Int] { [seconds, minutes, hours, days, weeks, months, years] }

    /// True when no component is negative, at least one is positive (so each step moves time
    /// forward) and the step is at most ``maximumYears`` long.
    public var isValid: Bool {
        guard components.allSatisfy({ $0 >= 0 }), components.contains(where: { $0 > 0 }) else { return false }
        // Months and years counted at their longest, in Double so huge components cannot overflow.
        let longest =
            (fixedLengthSecondsIgnoringCalendar + 31 * 86_400 * Double(months)
                + 366 * 86_400 * Double(years))
        return longest <= Double(Self.maximumYears) * 366 * 86_400
    }

    /// True when the interval is made of whole days (days, weeks, months, years only), as all-day
    /// elements require: an hour-based step could land on the same day again.
    public var isWholeDays: Bool { seconds == 0 && minutes == 0 && hours == 0 }

    /// The interval as `DateComponents` (`second`, `minute`, `hour`, `day`, `weekOfYear`, `month`,
    /// `year`; zero components are left nil).
    public var dateComponents: DateComponents {
        func nonZero(_ value: Int) -> Int? { value == 0 ? nil : value }
        return DateComponents(
            year: nonZero(years), month: nonZero(months), day: nonZero(days),
            hour: nonZero(hours), minute: nonZero(minutes), second: nonZero(seconds),
            weekOfYear: nonZero(weeks))
    }

    /// The components of `count` steps, for one calendar addition.
    func dateComponents(times count: Int) -> DateComponents {
        ScheduleInterval(
            seconds: seconds * count, minutes: minutes * count, hours: hours * count, days: days * count,
            weeks: weeks * count, months: months * count, years: years * count
        ).dateComponents
    }

    /// The exact length of one step in seconds when the interval has no months or years and the UTC
    /// offset does not change during the step; nil for months and years, whose length varies.
    var fixedLengthSeconds: Double? {
        guard months == 0, years == 0 else { return nil }
        return fixedLengthSecondsIgnoringCalendar
    }

    private var fixedLengthSecondsIgnoringCalendar: Double {
        Double(seconds) + 60 * Double(minutes) + 3600 * Double(hours)
            + 86_400 * Double(days) + 604_800 * Double(weeks)
    }
}

extension ScheduleInterval: Codable {
    private enum CodingKeys: String, CodingKey {
        case seconds, minutes, hours, days, weeks, months, years
    }

    /// Decodes an interval; missing components are zero. The result is not validated here
    /// (``ScheduleElement`` validates its interval when decoded).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func component(_ key: CodingKeys) throws -> Int {
            try container.decodeIfPresent(Int.self, forKey: key) ?? 0
        }
        self.init(
            seconds: try component(.seconds), minutes: try component(.minutes),
            hours: try component(.hours), days: try component(.days), weeks: try component(.weeks),
            months: try component(.months), years: try component(.years))
    }

    /// Encodes only the non-zero components, e.g. `{"days":1}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let pairs: [(CodingKeys, Int)] = [
            (.seconds, seconds), (.minutes, minutes), (.hours, hours), (.days, days),
            (.weeks, weeks), (.months, months), (.years, years),
        ]
        for (key, value) in pairs where value != 0 {
            try container.encode(value, forKey: key)
        }
    }
}

extension ScheduleInterval: CustomStringConvertible {
    /// A compact form such as `1d`, `2h30m`, `1w`, `1mo`.
    public var description: String {
        let parts: [(Int, String)] = [
            (years, "y"), (months, "mo"), (weeks, "w"), (days, "d"),
            (hours, "h"), (minutes, "m"), (seconds, "s"),
        ]
        let text = parts.filter { $0.0 != 0 }.map { "\($0.0)\($0.1)" }.joined()
        return text.isEmpty ? "0s" : text
    }
}
