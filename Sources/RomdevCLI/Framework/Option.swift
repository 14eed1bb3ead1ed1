/// A named command-line option: a flag (`--json`) or an option with a value (`--pain <n>`).
///
/// Values are given as `--name value` or `--name=value`. A repeating option may be given several
/// times and keeps every value in order; any other option given twice is a usage error, so a
/// mistyped command line never records the wrong of two values silently.
public struct Option: Hashable, Sendable {
    /// The long name without the leading dashes, e.g. `pain`.
    public let name: String
    /// The value's placeholder in help and usage, e.g. `n`; nil for a flag.
    public let valueName: String?
    /// One line (or a short paragraph) of help.
    public let help: String
    /// True when the command cannot run without it.
    public let isRequired: Bool
    /// True when the option may be given several times.
    public let isRepeating: Bool
    /// The only values accepted, listed in help; empty means any value.
    public let allowedValues: [String]
    /// The value used when the option is absent, shown in help; nil when there is none.
    public let defaultValue: String?
    /// For a flag that may also carry a value written `--name=value` (never as the next word,
    /// so `--simulate record.csv` stays unambiguous): the value's placeholder; nil otherwise.
    public let inlineValueName: String?

    private init(
        name: String, valueName: String?, help: String, isRequired: Bool, isRepeating: Bool,
        allowedValues: [String], defaultValue: String?, inlineValueName: String? = nil
    ) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.isRequired = isRequired
        self.isRepeating = isRepeating
        self.allowedValues = allowedValues
        self.defaultValue = defaultValue
        self.inlineValueName = inlineValueName
    }

    /// A flag: present or absent, no value.
    public static func flag(_ name: String, help: String) -> Option {
        Option(
            name: name, valueName: nil, help: help, isRequired: false, isRepeating: false,
            allowedValues: [], defaultValue: nil)
    }

    /// A flag that may carry a value only as `--name=value`, e.g. `--simulate[=<scenario>]`.
    ///
    /// - Parameters:
    ///   - inlineValueName: Placeholder shown as `[=<inlineValueName>]`.
    ///   - allowedValues: When not empty, any other inline value is a usage error.
    public static func flag(
        _ name: String, inlineValueName: String, help: String, allowedValues: [String] = []
    ) -> Option {
        Option(
            name: name, valueName: nil, help: help, isRequired: false, isRepeating: false,
            allowedValues: allowedValues, defaultValue: nil, inlineValueName: inlineValueName)
    }

    /// An option that takes a value.
    ///
    /// - Parameters:
    ///   - name: Long name without dashes.
    ///   - valueName: Placeholder shown as `<valueName>`.
    ///   - help: Help text.
    ///   - isRequired: The command fails with "Missing expected argument" without it.
    ///   - isRepeating: May be given several times.
    ///   - allowedValues: When not empty, any other value is a usage error.
    ///   - defaultValue: Shown in help as `(default: …)`.
    public static func value(
        _ name: String, valueName: String, help: String, isRequired: Bool = false,
        isRepeating: Bool = false, allowedValues: [String] = [], defaultValue: String? = nil
    ) -> Option {
        Option(
            name: name, valueName: valueName, help: help, isRequired: isRequired,
            isRepeating: isRepeating, allowedValues: allowedValues, defaultValue: defaultValue)
    }

    /// `--name`.
    public var longName: String { "--" + name }

    /// True for a flag.
    public var isFlag: Bool { valueName == nil }

    /// `--name <value>` or `--name`: the label in help and in error messages.
    public var label: String {
        if let valueName { return "\(longName) <\(valueName)>" }
        return inlineValueName.map { "\(longName)[=<\($0)>]" } ?? longName
    }

    /// The option as it appears in a usage line: `--pain <n>`, `[--date <date>]`, `--element <spec> ...`.
    var synopsis: String {
        var text = label
        if isRepeating { text += " ..." }
        return isRequired ? text : "[\(text)]"
    }

    /// Help text followed by the allowed values and default, as `(values: a, b; default: a)`.
    var helpWithValues: String {
        var notes: [String] = []
        if !allowedValues.isEmpty { notes.append("values: " + allowedValues.joined(separator: ", ")) }
        if let defaultValue { notes.append("default: " + defaultValue) }
        return notes.isEmpty ? help : "\(help) (\(notes.joined(separator: "; ")))"
    }
}
