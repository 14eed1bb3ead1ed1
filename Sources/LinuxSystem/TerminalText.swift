/// Text bound for a terminal, which acts on control characters: an escape sequence in a stored
/// name could move the cursor, retitle the window or hide what follows.
public enum TerminalText {
    /// `text` with every control character except newline and tab (C0, DEL, C1) and the invisible
    /// formatting characters (``isEscaped(_:)``) written as `\u{…}`, so that it shows instead of
    /// acting. Everything else, including non-ASCII letters, is kept.
    public static func escapingControlCharacters(_ text: String) -> String {
        escaping(text) { isEscaped($0) }
    }

    /// `text` for a place within one line: every control character escaped, newline and tab as
    /// well, so that a stored name or a typed argument cannot start lines of its own in the
    /// output (a consent name with a newline printed a line that looked like another outcome).
    public static func inline(_ text: String) -> String {
        escaping(text) { isEscaped($0) || $0.value == 0x0A || $0.value == 0x09 }
    }

    private static func escaping(_ text: String, where isEscaped: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The longest input an error message repeats whole.
    public static let excerptLimit = 64

    /// Input echoed in a message: at most ``excerptLimit`` characters on one line (``inline``);
    /// a longer input is cut and says how long it was, so a 200 KB argument gives a one-line error.
    public static func excerpt(_ text: String) -> String {
        guard text.count > excerptLimit else { return inline(text) }
        return inline(String(text.prefix(excerptLimit))) + "… (\(text.count) characters)"
    }

    /// Control characters but newline and tab, and the invisible ones that act on the text
    /// around them: the byte-order mark, zero-width spaces and joiners, the line and paragraph
    /// separators and the bidirectional overrides (which can show text in another order than it
    /// is stored). A file that starts with a byte-order mark printed a header that looked the
    /// same as the one expected.
    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF: true
        default: false
        }
    }
}
