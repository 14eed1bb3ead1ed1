/// The fields of a request line, read strictly: one flat JSON object whose values are strings,
/// `true`/`false`, `null` or lists of strings. A duplicated key, a nested object or a number is
/// refused, so every request means exactly one thing (Foundation's parser keeps the last of two
/// equal keys and reads `1` as `true`) and nesting cannot grow the parser's work.
struct ControlRequestFields {
    enum Value: Equatable {
        case string(String)
        case bool(Bool)
        case null
        case strings([String])
    }

    private(set) var values: [String: Value] = [:]

    /// Parses one line (without its newline).
    /// - Throws: `ControlMessageError` naming the first thing that is not allowed.
    init(line: [UInt8]) throws(ControlMessageError) {
        var reader = Reader(bytes: line)
        reader.skipSpace()
        guard reader.take(UInt8(ascii: "{")) else {
            throw ControlMessageError(reader.atEnd ? "empty request" : "not a JSON object")
        }
        reader.skipSpace()
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                reader.skipSpace()
                let key = try reader.string()
                reader.skipSpace()
                guard reader.take(UInt8(ascii: ":")) else { throw ControlMessageError("expected ':' after \"\(key)\"") }
                reader.skipSpace()
                let value = try reader.value(for: key)
                guard values.updateValue(value, forKey: key) == nil else {
                    throw ControlMessageError("\"\(key)\" is given twice")
                }
                reader.skipSpace()
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { throw ControlMessageError("expected ',' or '}' in the object") }
        }
        reader.skipSpace()
        guard reader.atEnd else { throw ControlMessageError("text after the JSON object") }
    }

    /// Refuses keys other than `allowed` (and `request`).
    func checkKeys(_ allowed: Set<String>, of request: String) throws(ControlMessageError) {
        if let unknown = values.keys.sorted().first(where: { $0 != "request" && !allowed.contains($0) }) {
            throw ControlMessageError("unknown key \"\(unknown)\" in a \(request) request")
        }
    }

    /// A byte cursor over the line.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func take(_ word: String) -> Bool {
            let word = Array(word.utf8)
            guard bytes.count - index >= word.count, Array(bytes[index..<index + word.count]) == word else { return false }
            index += word.count
            return true
        }

        mutating func value(for key: String) throws(ControlMessageError) -> Value {
            guard index < bytes.count else { throw ControlMessageError("no value for \"\(key)\"") }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "["):
                index += 1
                var items: [String] = []
                skipSpace()
                if take(UInt8(ascii: "]")) { return .strings(items) }
                repeat {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw ControlMessageError("\"\(key)\" must be a list of strings")
                    }
                    items.append(try string())
                    skipSpace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "]")) else { throw ControlMessageError("expected ',' or ']' in \"\(key)\"") }
                return .strings(items)
            default:
                if take("true") { return .bool(true) }
                if take("false") { return .bool(false) }
                if take("null") { return .null }
                throw ControlMessageError("\"\(key)\" must be a string, true, false, null or a list of strings")
            }
        }

        /// A JSON string with its escapes; the opening quote is at `index`.
        mutating func string() throws(ControlMessageError) -> String {
            guard take(UInt8(ascii: "\"")) else { throw ControlMessageError("expected a quoted key") }
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() throws(ControlMessageError) {
                guard !raw.isEmpty else { return }
                guard let text = String(validating: raw, as: UTF8.self) else { throw ControlMessageError("text is not UTF-8") }
                scalars.append(contentsOf: text.unicodeScalars)
                raw = []
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    try flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flush()
                    scalars.append(try escape())
                case 0..<0x20:
                    throw ControlMessageError("a control character inside a string")
                default:
                    raw.append(byte)
                }
            }
            throw ControlMessageError("a string is not closed")
        }

        private mutating func escape() throws(ControlMessageError) -> Unicode.Scalar {
            guard index < bytes.count else { throw ControlMessageError("a string is not closed") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try hexQuad()
                if (0xD800..<0xDC00).contains(high) {
                    guard take("\\u") else { throw ControlMessageError("a lone surrogate in a string") }
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low),
                        let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                    else { throw ControlMessageError("a lone surrogate in a string") }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(high) else { throw ControlMessageError("a lone surrogate in a string") }
                return scalar
            default:
                throw ControlMessageError("an unknown escape in a string")
            }
        }

        private mutating func hexQuad() throws(ControlMessageError) -> UInt32 {
            guard bytes.count - index >= 4 else { throw ControlMessageError("a short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                index += 1
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw ControlMessageError("a bad \\u escape")
                }
                value = value << 4 | digit
            }
            return value
        }
    }
}
