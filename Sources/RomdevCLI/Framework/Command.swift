/// A command of the `romdev` tool, described as a value: its name, help, options and arguments,
/// subcommands, and how to turn parsed values into an action.
///
/// The parser only reads these descriptions; it never runs anything. A leaf command has a `make`
/// closure that checks and converts the parsed strings into a typed ``CommandAction`` (throwing
/// ``UsageError`` for anything malformed); a group (`task`, `outcome`) has subcommands instead and
/// prints its help when called alone.
public struct Command: Sendable {
    /// The word that selects the command, e.g. `checkin`.
    public let name: String
    /// One line shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:` list.
    public let abstract: String
    /// Further paragraphs of help, shown after the overview; empty for none.
    public let discussion: String
    /// Positional arguments, in order.
    public let arguments: [Argument]
    /// Named options, in the order shown in help.
    public let options: [Option]
    /// Subcommands of a group; empty for a leaf.
    public let subcommands: [Command]
    /// Converts parsed values into the action to run; nil for a group.
    public let make: (@Sendable (ParsedValues) throws -> any CommandAction)?

    /// A leaf command.
    public init(
        name: String, abstract: String, discussion: String = "", arguments: [Argument] = [],
        options: [Option] = [], make: @escaping @Sendable (ParsedValues) throws -> any CommandAction
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = []
        self.make = make
    }

    /// A group of subcommands, such as `task add|update|delete`.
    public init(name: String, abstract: String, discussion: String = "", subcommands: [Command]) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = []
        self.options = []
        self.subcommands = subcommands
        self.make = nil
    }

    /// The subcommand with this name, if any.
    func subcommand(named name: String) -> Command? {
        subcommands.first { $0.name == name }
    }
}
