import Foundation
import LinuxSystem

extension ScriptedPress {
    /// A press list that does not parse, naming the offending item.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The item as written, e.g. `2x`.
        public let item: String

        public init(item: String) {
            self.item = item
        }

        public var description: String {
            "invalid press '\(TerminalText.excerpt(item))': expected a time after the start such as 2s or "
                + "1500ms, optionally followed by +HOLD, e.g. 15s+2s for a 2-second (long) press; each at most "
                + "\(Int(ScriptedPress.longestSeconds))s (7 days)"
        }
    }

    /// Parses a `--press-at` list: comma-separated items `AT` or `AT+HOLD`, each a non-negative
    /// decimal number with the unit `s` or `ms` (`2s,15s+2s,500ms`), at most ``longestSeconds``.
    /// A press without `+HOLD` is held 0.2 s.
    /// - Throws: `ParseError` naming the first bad item.
    public static func parseList(_ text: String) throws(ParseError) -> [ScriptedPress] {
        var presses: [ScriptedPress] = []
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = raw.trimmingCharacters(in: .whitespaces)
            let parts = item.split(separator: "+", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let at = seconds(parts[0]) else {
                throw ParseError(item: item)
            }
            if parts.count == 2 {
                guard let hold = seconds(parts[1]), hold > 0 else { throw ParseError(item: item) }
                presses.append(ScriptedPress(atSeconds: at, holdSeconds: hold))
            } else {
                presses.append(ScriptedPress(atSeconds: at))
            }
        }
        return presses
    }

    /// The latest press time and the longest hold: a week of simulated time, far beyond any
    /// scripted day, and far below the 584 years of nanoseconds a `UInt64` holds.
    public static let longestSeconds: Double = 7 * 86_400

    private static func seconds(_ text: Substring) -> Double? {
        let (number, scale): (Substring, Double) =
            text.hasSuffix("ms") ? (text.dropLast(2), 1e-3) : text.hasSuffix("s") ? (text.dropLast(), 1) : ("", 0)
        guard !number.isEmpty, number.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }),
            let value = Double(number), value * scale <= longestSeconds
        else { return nil }
        return value * scale
    }
}
