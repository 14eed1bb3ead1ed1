import Foundation

/// One repeating rule of a schedule: events from `start`, every `interval`, each lasting `duration`,
/// until `end` (exclusive).
///
/// Events follow CareKit's iterative rule: event k+1 is built from
/// `calendar.date(byAdding: interval, to: event_k.start)`, so a drift is kept rather than undone
/// (monthly from Jan 31 gives Jan 31, Feb 28, Mar 28; daily 02:30 becomes 03:30 after the spring
/// DST gap and stays there). An all-day event covers its local day, 00:00:00 to 23:59:59.
///
/// The element stores instants only; every computation takes the `Calendar` (with its time zone)
/// as an argument, and callers must use the same calendar throughout.
public struct ScheduleElement: Hashable, Sendable {
    /// The first event's start. For all-day elements, the start of that day.
    public let start: Date
    /// No event starts at or after `end` (exclusive). An all-day event still occurs on the day that
    /// contains `end − 1 s`, so an element ending at 12:00 has an event that day, and one ending
    /// exactly at midnight has none on the day that midnight begins. Nil: the element never ends.
    public let end: Date?
    /// The step between consecutive event starts.
    public let interval: ScheduleInterval
    /// How long each event lasts.
    public let duration: ScheduleDuration
    /// A free label shown with the events.
    public let text: String?
    /// Goal values for each event's outcome.
    public let targetValues: [OutcomeValue]

    /// No event starts after this instant, 9999-12-31 23:59:59 UTC. Elements without an end are
    /// treated as ending here, so every query and every occurrence index, however large, is
    /// answered in bounded time without overflowing the calendar.
    public static let horizon = Date(timeIntervalSince1970: 253_402_300_799)

    /// Creates a validated element.
    ///
    /// - Parameters:
    ///   - start: The first event's start; for `.allDay`, normalized to the start of its day.
    ///   - end: Exclusive end, or nil for a never-ending element. Must be after `start`.
    ///   - interval: A valid interval (``ScheduleInterval/isValid``); whole days for `.allDay`.
    ///   - duration: Each event's duration (``ScheduleDuration/isValid``).
    ///   - text: A free label.
    ///   - targetValues: Goal values for each event's outcome.
    ///   - calendar: The calendar (and time zone) that defines days for `.allDay`.
    /// - Throws: ``ScheduleError`` when a rule above is broken.
    public init(
        start: Date, end: Date? = nil, interval: ScheduleInterval, duration: ScheduleDuration = .hours(1),
        text: String? = nil, targetValues: [OutcomeValue] = [], calendar: Calendar
    ) throws(ScheduleError) {
        try Self.validate(start: start, end: end, interval: interval, duration: duration)
        self.start = duration == .allDay ? calendar.startOfDay(for: start) : start
        self.end = end
        self.interval = interval
        self.duration = duration
        self.text = text
        self.targetValues = targetValues
    }

    private static func validate(
        start: Date, end: Date?, interval: ScheduleInterval, duration: ScheduleDuration
    ) throws(ScheduleError) {
        if let end, !(start < end) {
            throw .endNotAfterStart(start: start, end: end)
        }
        guard interval.isValid else { throw .invalidInterval(interval) }
        switch duration {
        case .allDay:
            guard interval.isWholeDays else { throw .allDayIntervalNotWholeDays(interval) }
        case .seconds(let seconds):
            guard duration.isValid else { throw .invalidDuration(seconds: seconds) }
        }
    }
}

extension ScheduleElement: Codable {
    private enum CodingKeys: String, CodingKey {
        case start, end, interval, duration, text, targetValues
    }

    /// Decodes an element and validates it as the initializer does; `start` is taken as stored
    /// (already normalized for all-day elements when it was created).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decode(Date.self, forKey: .start)
        let end = try container.decodeIfPresent(Date.self, forKey: .end)
        let interval = try container.decode(ScheduleInterval.self, forKey: .interval)
        let duration = try container.decode(ScheduleDuration.self, forKey: .duration)
        do {
            try Self.validate(start: start, end: end, interval: interval, duration: duration)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
        self.start = start
        self.end = end
        self.interval = interval
        self.duration = duration
        self.text = try container.decodeIfPresent(String.self, forKey: .text)
        self.targetValues = try container.decodeIfPresent([OutcomeValue].self, forKey: .targetValues) ?? []
    }
}
