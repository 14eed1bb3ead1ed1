import Care
import Foundation
import LinuxSystem

/// A schedule element as written on the command line:
/// `start=2026-06-07T08:00,end=2026-06-14T00:00,every=1d,duration=1h,text=Before breakfast`.
///
/// Fields: `start` (required), `end` (optional, exclusive), `every` (required: a number and a
/// unit, `s` `m` `h` `d` `w` `mo` `y`, several may follow one another as in `1d12h`), `duration`
/// (`allday` or a number and a unit `s` `m` `h`; default `1h`, as in CareKit), `text` (a label;
/// it must come last and takes the rest of the spec, commas included). Dates are
/// ``DateArgument``s, local to the store's zone unless they carry an offset.
public struct ElementSpec: Hashable, Sendable {
    public var start: DateArgument
    public var end: DateArgument?
    public var interval: ScheduleInterval
    public var duration: ScheduleDuration
    public var text: String?

    /// The field names, in the order they are written.
    public static let fieldNames = ["start", "end", "every", "duration", "text"]

    /// Parses a spec.
    ///
    /// - Throws: ``ElementSpecError`` naming the field at fault.
    public init(parsing spec: String) throws(ElementSpecError) {
        var fields: [String: String] = [:]
        var rest = Substring(spec)
        while !rest.isEmpty {
            let pair: Substring
            if rest.hasPrefix("text=") {
                pair = rest
                rest = ""
            } else if let comma = rest.firstIndex(of: ",") {
                pair = rest[..<comma]
                rest = rest[rest.index(after: comma)...]
                if rest.isEmpty { throw .emptyField }
            } else {
                pair = rest
                rest = ""
            }
            guard let equals = pair.firstIndex(of: "=") else {
                throw pair.isEmpty ? .emptyField : .notKeyValue(String(pair))
            }
            let key = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            guard Self.fieldNames.contains(key) else { throw .unknownField(key) }
            guard fields[key] == nil else { throw .repeatedField(key) }
            fields[key] = value
        }
        guard let startText = fields["start"] else { throw .missingField("start") }
        guard let everyText = fields["every"] else { throw .missingField("every") }
        guard let start = DateArgument(startText) else { throw .invalidValue(field: "start", value: startText) }
        self.start = start
        if let endText = fields["end"] {
            guard let end = DateArgument(endText) else { throw .invalidValue(field: "end", value: endText) }
            self.end = end
        }
        guard let interval = Self.parseInterval(everyText), interval.isValid else {
            throw .invalidValue(field: "every", value: everyText)
        }
        self.interval = interval
        if let durationText = fields["duration"] {
            guard let duration = Self.parseDuration(durationText) else {
                throw .invalidValue(field: "duration", value: durationText)
            }
            self.duration = duration
        } else {
            self.duration = .hours(1)
        }
        self.text = fields["text"]
    }

    /// The element in `calendar` (the store's): dates without an offset are local to it.
    ///
    /// - Throws: ``ScheduleError`` when the element breaks a schedule rule (end not after start,
    ///   an all-day element repeating by hours).
    public func element(calendar: Calendar) throws -> ScheduleElement {
        guard let startDate = start.date(in: calendar) else {
            throw ElementSpecError.invalidValue(field: "start", value: "\(start)")
        }
        let endDate = try end.map { end throws -> Date in
            guard let date = end.date(in: calendar) else {
                throw ElementSpecError.invalidValue(field: "end", value: "\(end)")
            }
            return date
        }
        return try ScheduleElement(
            start: startDate, end: endDate, interval: interval, duration: duration, text: text, calendar: calendar)
    }

    /// An element written back as a spec, with local times in `calendar`'s zone, so `romdev tasks`
    /// prints what `--element` accepts.
    public static func format(_ element: ScheduleElement, calendar: Calendar) -> String {
        var parts = ["start=" + LocalTime.format(element.start, calendar: calendar)]
        if let end = element.end { parts.append("end=" + LocalTime.format(end, calendar: calendar)) }
        parts.append("every=\(element.interval)")
        parts.append("duration=" + formatDuration(element.duration))
        if let text = element.text { parts.append("text=" + text) }
        return parts.joined(separator: ",")
    }

    /// `allday`, or the seconds as the largest exact units: `1h`, `90s`, `1h30m`.
    static func formatDuration(_ duration: ScheduleDuration) -> String {
        switch duration {
        case .allDay:
            return "allday"
        case .seconds(let seconds):
            guard seconds.rounded() == seconds, seconds < 1e12 else { return "\(seconds)s" }
            var rest = Int(seconds)
            if rest == 0 { return "0s" }
            var text = ""
            for (unit, size) in [("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
                text += "\(rest / size)\(unit)"
                rest %= size
            }
            return text
        }
    }

    /// `1d`, `2h30m`, `1mo`… Each unit at most once, largest first is not required.
    static func parseInterval(_ text: String) -> ScheduleInterval? {
        guard let parts = numbersWithUnits(text) else { return nil }
        var interval = ScheduleInterval()
        var seen = Set<String>()
        for (value, unit) in parts {
            guard seen.insert(unit).inserted else { return nil }
            switch unit {
            case "s": interval.seconds = value
            case "m": interval.minutes = value
            case "h": interval.hours = value
            case "d": interval.days = value
            case "w": interval.weeks = value
            case "mo": interval.months = value
            case "y": interval.years = value
            default: return nil
            }
        }
        return interval
    }

    /// `allday`, or `90s`, `30m`, `1h`, `1h30m`.
    static func parseDuration(_ text: String) -> ScheduleDuration? {
        if text == "allday" { return .allDay }
        guard let parts = numbersWithUnits(text) else { return nil }
        var seconds = 0.0
        var seen = Set<String>()
        for (value, unit) in parts {
            guard seen.insert(unit).inserted else { return nil }
            switch unit {
            case "s": seconds += Double(value)
            case "m": seconds += Double(value) * 60
            case "h": seconds += Double(value) * 3600
            default: return nil
            }
        }
        return .seconds(seconds)
    }

    /// `1d12h` → [(1, "d"), (12, "h")]; nil unless the text is one or more digit runs each
    /// followed by letters, with values that fit comfortably in an Int.
    private static func numbersWithUnits(_ text: String) -> [(Int, String)]? {
        var parts: [(Int, String)] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let unit = rest.dropFirst(digits.count).prefix { $0.isASCII && $0.isLetter }
            guard !digits.isEmpty, digits.count <= 9, !unit.isEmpty, let value = Int(digits) else { return nil }
            parts.append((value, String(unit)))
            rest = rest.dropFirst(digits.count + unit.count)
        }
        return parts.isEmpty ? nil : parts
    }
}

/// Why an element spec could not be read. The description names the field.
public enum ElementSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    case emptyField
    case notKeyValue(String)
    case unknownField(String)
    case repeatedField(String)
    case missingField(String)
    case invalidValue(field: String, value: String)

    public var description: String {
        switch self {
        case .emptyField:
            "empty field (fields are separated by single commas)"
        case .notKeyValue(let text):
            "'\(TerminalText.excerpt(text))' is not a field=value pair"
        case .unknownField(let name):
            "unknown field '\(TerminalText.excerpt(name))' (fields: \(ElementSpec.fieldNames.joined(separator: ", ")))"
        case .repeatedField(let name):
            "field '\(name)' is given twice"
        case .missingField(let name):
            "missing field '\(name)'"
        case .invalidValue(let field, let value):
            "field '\(field)' has an invalid value '\(TerminalText.excerpt(value))': " + Self.expected(field)
        }
    }

    private static func expected(_ field: String) -> String {
        switch field {
        case "every": "expected a positive number and a unit s, m, h, d, w, mo or y, such as 1d or 2h30m"
        case "duration": "expected allday or a number and a unit s, m or h, such as 1h or 90s"
        default: "expected an ISO 8601 date such as 2026-06-07T08:00"
        }
    }
}
