import Foundation

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
