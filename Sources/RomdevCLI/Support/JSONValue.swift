import Foundation

/// A JSON document with object keys in a fixed order, so output is stable and reads in the order
/// the README documents (Foundation's encoder only offers insertion-agnostic or sorted keys).
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.rendered() == rhs.rendered()
    }

    /// An optional string as a string or null.
    static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    /// Pretty-printed with two-space indents and a final newline.
    func rendered() -> String {
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
            // Stored doubles are finite (the store refuses others); null keeps the JSON valid anyway.
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
    static func quoted(_ string: String) -> String {
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
}

extension JSONValue: Decodable {
    /// The members of `value`'s JSON object (its `Encodable` conformance, the one encoding of a
    /// type), ordered as `keys` lists them.
    static func members<Key: CodingKey & CaseIterable>(
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

    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
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
}
