/// A positional argument, e.g. the `<id>` of `romdev task delete <id>`.
public struct Argument: Hashable, Sendable {
    /// The placeholder shown as `<valueName>`.
    public let valueName: String
    /// Help text.
    public let help: String
    /// True when the argument may be left out.
    public let isOptional: Bool

    /// Creates a positional argument.
    public init(_ valueName: String, help: String, isOptional: Bool = false) {
        self.valueName = valueName
        self.help = help
        self.isOptional = isOptional
    }

    /// `<valueName>`.
    public var label: String { "<\(valueName)>" }

    var synopsis: String { isOptional ? "[\(label)]" : label }
}
