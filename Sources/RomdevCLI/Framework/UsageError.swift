import LinuxSystem

/// A command line that cannot be run as written: unknown option, missing or malformed value.
/// Reported on stderr with the usage line, exit status 64 (`EX_USAGE`).
public struct UsageError: Error, Equatable, Sendable {
    /// What is wrong, phrased as swift-argument-parser does, e.g. "Missing expected argument '<id>'".
    public var message: String
    /// The help of the argument concerned, as `--pain <n>  Pain from 1 to 10.`; nil when none applies.
    public var argumentHelp: String?
    /// The command words, e.g. `["romdev", "task", "add"]`; filled in by the parser.
    public var commandPath: [String]
    /// The command's usage line; filled in by the parser.
    public var usage: String

    /// An error with a message; the parser adds the command and its usage.
    public init(_ message: String, argumentHelp: String? = nil) {
        self.message = message
        self.argumentHelp = argumentHelp
        self.commandPath = []
        self.usage = ""
    }

    /// "The value '…' is invalid for '<label>'", followed by `: reason` when there is one; a long
    /// value is cut (``TerminalText/excerpt(_:)``).
    public static func invalidValue(_ value: String, for label: String, reason: String? = nil, help: String? = nil)
        -> UsageError
    {
        let suffix = reason.map { ": " + $0 } ?? ""
        return UsageError(
            "The value '\(TerminalText.excerpt(value))' is invalid for '\(label)'\(suffix)", argumentHelp: help)
    }

    /// The text printed on stderr:
    ///
    ///     Error: <message>
    ///     Help:  <argument help>          (when there is one)
    ///     Usage: <usage>
    ///       See 'romdev <command> --help' for more information.
    public var report: String {
        var text = "Error: \(message)\n"
        if let argumentHelp { text += "Help:  \(argumentHelp)\n" }
        if !usage.isEmpty { text += "Usage: \(usage)\n" }
        text += "  See '\(commandPath.joined(separator: " ")) --help' for more information.\n"
        return text
    }
}
