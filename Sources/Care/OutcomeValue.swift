import Foundation

/// One recorded value of an outcome, such as a pain score or a range of motion in degrees.
public struct OutcomeValue: Hashable, Sendable {
    /// A typed value.
    public enum Value: Hashable, Sendable {
        case integer(Int)
        case double(Double)
        case boolean(Bool)
        case text(String)
        case date(Date)
    }

    /// The value.
    public var value: Value
    /// What the value measures, e.g. `checkin.form.pain` or `range`.
    public var kind: String?
    /// The unit, e.g. `deg` or `h`; nil for unitless values.
    public var units: String?
    /// When the value was recorded.
    public var createdDate: Date

    /// Creates a value. `createdDate` has no default: callers pass their `now`.
    public init(_ value: Value, kind: String? = nil, units: String? = nil, createdDate: Date) {
        self.value = value
        self.kind = kind
        self.units = units
        self.createdDate = createdDate
    }

    /// The value's type as stored: `integer`, `double`, `boolean`, `text` or `date`.
    public var typeName: String {
        switch value {
        case .integer: "integer"
        case .double: "double"
        case .boolean: "boolean"
        case .text: "text"
        case .date: "date"
        }
    }

    /// The value as a number for integers, doubles and booleans (1 or 0); nil otherwise.
    public var numberValue: Double? {
        switch value {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .boolean(let value): value ? 1 : 0
        case .text, .date: nil
        }
    }
}

extension OutcomeValue: Codable {
    // CareKit's keys: {"type":"double","value":85,"kind":"range","units":"deg","createdDate":…}.
    private enum CodingKeys: String, CodingKey {
        case type, value, kind, units, createdDate
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        let value: Value =
            switch type {
            case "integer": .integer(try container.decode(Int.self, forKey: .value))
            case "double": .double(try container.decode(Double.self, forKey: .value))
            case "boolean": .boolean(try container.decode(Bool.self, forKey: .value))
            case "text": .text(try container.decode(String.self, forKey: .value))
            case "date": .date(try container.decode(Date.self, forKey: .value))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container, debugDescription: "unknown outcome value type '\(type)'")
            }
        self.init(
            value,
            kind: try container.decodeIfPresent(String.self, forKey: .kind),
            units: try container.decodeIfPresent(String.self, forKey: .units),
            createdDate: try container.decode(Date.self, forKey: .createdDate))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        switch value {
        case .integer(let value): try container.encode(value, forKey: .value)
        case .double(let value): try container.encode(value, forKey: .value)
        case .boolean(let value): try container.encode(value, forKey: .value)
        case .text(let value): try container.encode(value, forKey: .value)
        case .date(let value): try container.encode(value, forKey: .value)
        }
        try container.encodeIfPresent(kind, forKey: .kind)
        try container.encodeIfPresent(units, forKey: .units)
        try container.encode(createdDate, forKey: .createdDate)
    }
}
