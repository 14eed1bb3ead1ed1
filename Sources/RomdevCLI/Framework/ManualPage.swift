/// What a tool's manual page says beyond its command table: the sections the commands cannot
/// supply (`ENVIRONMENT`, `FILES`, `EXAMPLES`, `SEE ALSO`). `NAME`, `SYNOPSIS`, `DESCRIPTION`,
/// `COMMANDS` and `EXIT STATUS` come from the commands themselves, so the page and `--help`
/// cannot disagree.
public struct ManualPage: Sendable {
    /// A term and its explanation, e.g. a file and what it holds.
    public struct Entry: Sendable {
        /// The file, variable or value being explained.
        public var term: String
        /// Its explanation: running text.
        public var text: String

        /// Creates an entry.
        public init(_ term: String, _ text: String) {
            self.term = term
            self.text = text
        }
    }

    /// An example: what it does, then the command lines.
    public struct Example: Sendable {
        /// What the example shows: running text.
        public var text: String
        /// Command lines, shown as written.
        public var commands: [String]

        /// Creates an example.
        public init(_ text: String, _ commands: [String]) {
            self.text = text
            self.commands = commands
        }
    }

    /// The manual section: 1 for user commands, 8 for system administration and daemons.
    public var section: Int
    /// The section's name in the page header, e.g. "System Administration".
    public var sectionName: String
    /// Environment variables the tool reads.
    public var environment: [Entry]
    /// Files the tool reads or writes.
    public var files: [Entry]
    /// Examples of use.
    public var examples: [Example]
    /// Related pages, e.g. `systemctl(1)`.
    public var seeAlso: [String]

    /// Creates the sections of a page.
    public init(
        section: Int = 1, sectionName: String = "User Commands", environment: [Entry] = [], files: [Entry] = [],
        examples: [Example] = [], seeAlso: [String] = []
    ) {
        self.section = section
        self.sectionName = sectionName
        self.environment = environment
        self.files = files
        self.examples = examples
        self.seeAlso = seeAlso
    }
}
