import Foundation

/// Any JSON value, so a reply can carry a payload of a type the envelope does not know: the
/// sender encodes its payload, the envelope holds it as this value, the receiver decodes it as
/// the type it expects.
enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    /// An integer, kept exact.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// The control socket's JSON: compact, sorted keys, slashes unescaped, one line (JSON escapes
/// line breaks inside strings, so a newline only ends a frame).
enum ControlJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as one line, newline included.
    static func line<Value: Encodable>(_ value: Value) -> [UInt8] {
        // The control messages hold only strings, booleans, lists and finite JSON values decoded
        // from JSON, which always encode.
        let data = (try? encoder().encode(value)) ?? Data("{}".utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// One line (without its newline) decoded as `Value`.
    /// - Throws: `ControlMessageError`: the error `Value` threw itself, or one saying why the
    ///   line is not JSON of that shape.
    static func decode<Value: Decodable>(_ type: Value.Type, line: [UInt8]) throws(ControlMessageError) -> Value {
        guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else {
            throw ControlMessageError("empty request")
        }
        // Swift 6.0's JSONDecoder (Debian trixie's) traps instead of throwing on a key with invalid
        // UTF-8, a raw control character or a bad escape; JSONSerialization refuses such text first.
        guard (try? JSONSerialization.jsonObject(with: Data(line), options: .fragmentsAllowed)) != nil else {
            throw ControlMessageError("not JSON: \(String(decoding: line.prefix(80), as: UTF8.self))")
        }
        do {
            return try JSONDecoder().decode(type, from: Data(line))
        } catch let error as ControlMessageError {
            throw error
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw ControlMessageError("not a JSON object")
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw ControlMessageError("not JSON: \(String(decoding: line.prefix(80), as: UTF8.self))")
        } catch {
            throw ControlMessageError("unexpected JSON: \(error)")
        }
    }
}

/// A coding key for any name, so a decoder can list the keys it was given and refuse unknown ones.
struct AnyKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        stringValue = name
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        return nil
    }
}
