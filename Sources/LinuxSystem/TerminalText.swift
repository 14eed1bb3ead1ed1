/// Text bound for a terminal, which acts on control characters: an escape sequence in a stored
/// name could move the cursor, retitle the window or hide what follows.
public enum TerminalText {
    /// `text` with every control character except newline and tab (C0, DEL, C1) written as `\u{…}`,
    /// so that it shows instead of acting. Everything else, including non-ASCII letters, is kept.
    public static func escapingControlCharacters(_ text: String) -> String {
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

    /// Input echoed in a message: at most ``excerptLimit`` characters, control characters escaped;
    /// a longer input is cut and says how long it was, so a 200 KB argument gives a one-line error.
    public static func excerpt(_ text: String) -> String {
        guard text.count > excerptLimit else { return escapingControlCharacters(text) }
        return escapingControlCharacters(String(text.prefix(excerptLimit))) + "… (\(text.count) characters)"
    }

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}
