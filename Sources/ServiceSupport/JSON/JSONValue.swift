import Foundation

/// Any JSON value, with object members in a fixed order and integers kept exact.
///
/// The command line renders its JSON output with it, in the order the README documents
/// (Foundation's encoder only offers unordered or sorted keys). The control socket carries a
/// reply's payload in it: the sender encodes its payload, the envelope holds it as this value,
/// the receiver decodes it as the type it expects.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// An integer, kept exact (a double rounds those beyond 2^53).
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order they are rendered. Through an encoder the encoder's order applies:
    /// `ControlJSON` sorts keys, whatever their order here.
    case object([(String, JSONValue)])

    /// Objects are equal only with the same members in the same order, as they render.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let l), .bool(let r)): l == r
        case (.int(let l), .int(let r)): l == r
        case (.double(let l), .double(let r)): l == r
        case (.string(let l), .string(let r)): l == r
        case (.array(let l), .array(let r)): l == r
        case (.object(let l), .object(let r)):
            l.count == r.count && zip(l, r).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// An optional string as a string or null.
    public static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    /// Pretty-printed with two-space indents and a final newline.
    public func rendered() -> String {
        var text = ""
        write(to: &text, indent: 0)
        return text + "\n"
    }

    private func write(to text: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closePad = String(repeating: "  ", count: indent)
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .int(let value): text += String(value)
        case .double(let value):
            // JSON has no NaN or infinity; null keeps the text valid (the care store refuses them anyway).
            text += value.isFinite ? "\(value)" : "null"
        case .string(let value): text += Self.quoted(value)
        case .array(let values):
            guard !values.isEmpty else {
                text += "[]"
                return
            }
            text += "[\n"
            for (i, value) in values.enumerated() {
                text += pad
                value.write(to: &text, indent: indent + 1)
                text += i < values.count - 1 ? ",\n" : "\n"
            }
            text += closePad + "]"
        case .object(let pairs):
            guard !pairs.isEmpty else {
                text += "{}"
                return
            }
            text += "{\n"
            for (i, (key, value)) in pairs.enumerated() {
                text += pad + Self.quoted(key) + ": "
                value.write(to: &text, indent: indent + 1)
                text += i < pairs.count - 1 ? ",\n" : "\n"
            }
            text += closePad + "}"
        }
    }

    /// A JSON string literal (RFC 8259 §7): quote, backslash and control characters escaped.
    private static func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case let s where s.value < 0x20:
                text += String(format: "\\u%04x", s.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    /// The members of `value`'s JSON object (its `Encodable` conformance, the one encoding of a
    /// type), ordered as `keys` lists them.
    public static func members<Key: CodingKey & CaseIterable>(
        of value: some Encodable, orderedAs keys: Key.Type
    ) throws -> [(String, JSONValue)] {
        guard case .object(let members) = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        else {
            throw DecodingError.typeMismatch(
                JSONValue.self,
                DecodingError.Context(codingPath: [], debugDescription: "\(type(of: value)) is not an object"))
        }
        let order = Key.allCases.map(\.stringValue)
        return members.sorted {
            (order.firstIndex(of: $0.0) ?? order.count) < (order.firstIndex(of: $1.0) ?? order.count)
        }
    }
}

extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A decoded object's members are sorted by key, so the same text always gives the same value.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            self = .object(
                try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
                    (key.stringValue, try object.decode(JSONValue.self, forKey: key))
                })
        } else if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
            self = .array(values)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let value = try? single.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? single.decode(Int.self) {
                self = .int(value)
            } else if let value = try? single.decode(Double.self) {
                self = .double(value)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        case .int(let value): try single.encode(value)
        case .double(let value): try single.encode(value)
        case .string(let value): try single.encode(value)
        case .array(let values): try single.encode(values)
        case .object(let members): try single.encode(Members(members: members))
        }
    }

    /// An object's members through a keyed container, in their order; an encoder that sorts keys
    /// sorts them.
    private struct Members: Encodable {
        let members: [(String, JSONValue)]

        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in members { try object.encode(value, forKey: MemberKey(stringValue: key)) }
        }
    }
}
