/// Text and attribute values for the report's markup, which is both HTML and well-formed XML.
enum HTMLText {
    /// `text` with `& < > " '` as character references, and the characters XML 1.0 forbids
    /// (C0 controls other than tab and newlines, U+FFFE, U+FFFF) as U+FFFD, so stored text can
    /// neither add markup nor make the page unreadable.
    static func escape(_ text: String) -> String {
        // Most text needs nothing; checking the bytes first spares a copy of each.
        guard
            text.utf8.contains(where: {
                $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0xEF
            })
        else { return text }
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
