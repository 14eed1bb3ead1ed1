import Foundation

/// The JSON framing shared by requests and replies: one compact object per line.
enum ControlJSON {
    /// `object` as one line of JSON with sorted keys, ending in a newline. JSON escapes line
    /// breaks inside strings, so the newline is always the frame's end.
    static func line(_ object: [String: Any]) -> [UInt8] {
        // Only strings, string arrays and values decoded by JSONSerialization get here, which
        // always serialise.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// The object in one line (without its newline).
    static func object(_ line: [UInt8]) throws(ControlMessageError) -> [String: Any] {
        guard let value = try? JSONSerialization.jsonObject(with: Data(line)) else {
            throw ControlMessageError("not JSON: \(String(decoding: line.prefix(80), as: UTF8.self))")
        }
        guard let object = value as? [String: Any] else { throw ControlMessageError("not a JSON object") }
        return object
    }
}
