/// How long each event of a schedule element lasts.
public enum ScheduleDuration: Hashable, Sendable {
    /// The event covers its whole local day: from the start of the day to 23:59:59 (one second
    /// before the next day starts), so 23 or 25 hours minus a second on DST days.
    case allDay
    /// The event lasts this many seconds from its start; its end is start + seconds.
    case seconds(Double)

    /// A fixed duration of `hours` hours.
    public static func hours(_ hours: Double) -> ScheduleDuration { .seconds(hours * 3600) }
    /// A fixed duration of `minutes` minutes.
    public static func minutes(_ minutes: Double) -> ScheduleDuration { .seconds(minutes * 60) }

    /// True for ``allDay`` and for a fixed duration from zero up to ``ScheduleInterval/maximumYears``
    /// years (so event ends stay dates that any formatter can print).
    public var isValid: Bool {
        switch self {
        case .allDay: true
        case .seconds(let seconds): seconds >= 0 && seconds <= Double(ScheduleInterval.maximumYears) * 366 * 86_400
        }
    }
}

extension ScheduleDuration: Codable {
    // CareKit's keys, so the JSON reads the same: {"isAllDay":true} or {"isAllDay":false,"seconds":3600}.
    private enum CodingKeys: String, CodingKey {
        case isAllDay, seconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decode(Bool.self, forKey: .isAllDay) {
            self = .allDay
        } else {
            self = .seconds(try container.decode(Double.self, forKey: .seconds))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .allDay:
            try container.encode(true, forKey: .isAllDay)
        case .seconds(let seconds):
            try container.encode(false, forKey: .isAllDay)
            try container.encode(seconds, forKey: .seconds)
        }
    }
}
