import Foundation

/// Comma-separated values as RFC 4180 writes them: a field is quoted when it holds a comma, a
/// quote or a line break, and quotes inside are doubled. Lines end with LF.
enum CSV {
    /// One record.
    static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    /// One field, quoted when needed.
    static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
