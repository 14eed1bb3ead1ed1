/// Escaping for roff text in the `man` macro package, as groff(7) and mandoc_roff(7) read it.
enum Roff {
    /// `text` safe to put anywhere in a text line or a quoted macro argument: backslashes as
    /// `\e`, hyphens as `\-` (so options stay copyable: a plain `-` may become a typographic
    /// hyphen), double quotes as `\(dq`, and every non-ASCII character as `\[uXXXX]`, so the page
    /// formats the same without a UTF-8 preprocessor.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case "\"": escaped += "\\(dq"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return escaped
    }

    /// An escaped text line: a leading `.` or `'` would start a request, so it gets the
    /// zero-width `\&` in front.
    static func textLine(_ text: String) -> String {
        let escaped = escape(text)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// Running text as escaped text lines of at most `width` bytes where the words allow (the
    /// formatter fills them again; short source lines keep diffs and linters quiet).
    static func fill(_ text: String, width: Int = 79) -> [String] {
        wrap(text.split(separator: " ").map { escape(String($0)) }, width: width)
    }

    /// Words already in roff (escaped, with font changes) as text lines of at most `width` bytes
    /// where the words allow.
    static func wrap(_ words: [String], width: Int = 79) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words where !word.isEmpty {
            if line.isEmpty {
                line = word
            } else if line.utf8.count + 1 + word.utf8.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0 }
    }

    /// `text` in bold, then back to roman.
    static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }

    /// `text` in italics, then back to roman.
    static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }
}
