/// Help and usage text in swift-argument-parser's layout: `OVERVIEW:`, `USAGE:`, `ARGUMENTS:`,
/// `OPTIONS:` and `SUBCOMMANDS:`, labels indented by 2 and their help starting at column 26,
/// wrapped at 80 columns.
struct HelpGenerator {
    /// The column where help text starts after a label.
    static let labelColumnWidth = 26
    /// The width help text is wrapped to.
    static let screenWidth = 80
    /// Above this many options and arguments, a usage line lists only the required ones.
    static let maximumSynopsisCount = 12
    /// The help of `--version`, which every command takes.
    static let versionOptionHelp = "Show the version."
    /// The help of `-h, --help`, which every command takes.
    static let helpOptionHelp = "Show help information."

    /// The command and its parents, root first.
    let path: [Command]

    private var names: String { path.map(\.name).joined(separator: " ") }
    private var command: Command { path[path.count - 1] }

    /// The usage line without the `USAGE:` prefix, e.g. `romdev checkin --pain <n> [--date <date>]`.
    var usage: String {
        if !command.subcommands.isEmpty { return "\(names) <subcommand>" }
        let all = command.arguments.map(\.synopsis) + command.options.map(\.synopsis)
        if all.count <= Self.maximumSynopsisCount {
            return ([names] + all).joined(separator: " ")
        }
        // Like swift-argument-parser: keep positionals and required options, fold the rest.
        let kept = command.arguments.map(\.synopsis) + command.options.filter(\.isRequired).map(\.synopsis)
        return ([names, "[<options>]"] + kept).joined(separator: " ")
    }

    /// The full help text, ending with a newline.
    var help: String {
        var sections: [String] = []
        var overview = "OVERVIEW: \(command.abstract)"
        if !command.discussion.isEmpty { overview += "\n\n" + command.discussion }
        sections.append(overview)
        sections.append("USAGE: \(usage)")
        if !command.arguments.isEmpty {
            sections.append("ARGUMENTS:\n" + command.arguments.map { Self.row($0.label, $0.help) }.joined())
        }
        let optionRows =
            command.options.map { Self.row($0.label, $0.helpWithValues) }
            + [Self.row("--version", Self.versionOptionHelp), Self.row("-h, --help", Self.helpOptionHelp)]
        sections.append("OPTIONS:\n" + optionRows.joined())
        if !command.subcommands.isEmpty {
            let parents = path.dropFirst().map(\.name)
            let helpCommand = ([path[0].name, "help"] + parents + ["<subcommand>"]).joined(separator: " ")
            sections.append(
                "SUBCOMMANDS:\n" + command.subcommands.map { Self.row($0.name, $0.abstract) }.joined()
                    + "\n  See '\(helpCommand)' for detailed help.\n")
        }
        return sections.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined(separator: "\n")
    }

    /// One `  label   help` row: the label indented by 2, the help from column 26 (on the next line
    /// when the label reaches that column), wrapped at 80 columns.
    static func row(_ label: String, _ help: String) -> String {
        let indentedLabel = "  " + label
        let indent = String(repeating: " ", count: labelColumnWidth)
        let lines = wrap(help, width: screenWidth - labelColumnWidth)
        var text: String
        var rest = lines[...]
        if indentedLabel.count < labelColumnWidth {
            text =
                indentedLabel + String(repeating: " ", count: labelColumnWidth - indentedLabel.count)
                + (rest.popFirst() ?? "") + "\n"
        } else {
            text = indentedLabel + "\n"
        }
        for line in rest { text += indent + line + "\n" }
        return text
    }

    /// Splits `text` into lines of at most `width` characters at spaces (a longer word gets a line
    /// of its own); explicit newlines are kept.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }
}
