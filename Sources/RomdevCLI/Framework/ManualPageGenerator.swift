/// A tool's manual page in roff (the `man` macros), built from its command table and its
/// ``ManualPage`` sections: what `romdev help --man` prints and `make install` installs.
///
/// The command sections reuse what `--help` prints: each command's abstract, discussion,
/// arguments and options (with their allowed values and defaults); the root's `EXIT CODES:`
/// table becomes `EXIT STATUS`, joined by the statuses only some command uses.
struct ManualPageGenerator {
    /// The tool: its root command, version and manual sections.
    let tool: CommandLineTool
    /// The page's date in the header, `YYYY-MM-DD`.
    let date: String

    private var root: Command { tool.root }
    private var manual: ManualPage { tool.manual }

    /// The whole page, one roff line per line, ending with a newline.
    var page: String {
        var lines = header + name + synopsis + description + options + commands
        lines += exitStatus + environment + files + examples + seeAlso
        // A paragraph break right after a heading is redundant, and linters say so.
        let kept = lines.indices.filter { index in
            !(lines[index] == ".PP" && index > 0
                && (lines[index - 1].hasPrefix(".SH") || lines[index - 1].hasPrefix(".SS")))
        }
        return kept.map { lines[$0] }.joined(separator: "\n") + "\n"
    }

    // MARK: - Sections

    private var header: [String] {
        [
            #".\" \#(root.name)(\#(manual.section)), written by '\#(root.name) help --man' from its command table."#,
            #".TH \#(root.name.uppercased()) \#(manual.section) \#(date) "\#(root.name) \#(Roff.escape(tool.version))" "\#(Roff.escape(manual.sectionName))""#,
            // Paths, identifiers and options read better unjustified.
            ".ad l",
        ]
    }

    private var name: [String] {
        [".SH NAME"] + Roff.wrap([Roff.escape(root.name), "\\-"] + Roff.fill(root.abstract))
    }

    private var synopsis: [String] {
        let tool = Roff.bold(root.name)
        return [
            ".SH SYNOPSIS",
            "\(tool) \(Roff.italic("command")) [\(Roff.italic("options"))] [\(Roff.italic("arguments"))]",
            ".br",
            "\(tool) \(Roff.bold("help")) [\(Roff.italic("command")) ...]",
            ".br",
            "\(tool) \(Roff.bold("help --man"))",
            ".br",
            "\(tool) \(Roff.bold("--version"))",
        ]
    }

    private var description: [String] {
        [".SH DESCRIPTION"] + Self.paragraphs(Discussion(root.discussion).paragraphsWithoutExitCodes)
    }

    private var options: [String] {
        [
            ".SH OPTIONS",
            "Every command takes these; they are left out of the lists below.",
            ".TP", "\(Roff.bold("-h")), \(Roff.bold("--help"))",
        ] + Roff.fill(HelpGenerator.helpOptionHelp + " The same text as \(root.name) help [command ...].") + [
            ".TP", Roff.bold("--version"),
        ] + Roff.fill(HelpGenerator.versionOptionHelp)
    }

    private var commands: [String] {
        [".SH COMMANDS"] + root.subcommands.flatMap { entries(for: [root, $0]) }
    }

    /// The `.SS` entry of the command at the end of `path`, then those of its subcommands.
    private func entries(for path: [Command]) -> [String] {
        let command = path[path.count - 1]
        let names = path.map(\.name).joined(separator: " ")
        var lines = [#".SS "\#(Roff.escape(names))""#]
        if command.subcommands.isEmpty {
            let synopsis = command.arguments.map(Self.synopsis) + command.options.map(Self.synopsis)
            lines += Roff.wrap(([Roff.bold(names)] + synopsis).flatMap { $0.split(separator: " ").map(String.init) })
            lines.append(".PP")
        }
        lines += Roff.fill(command.abstract)
        lines += Self.paragraphs(Discussion(command.discussion).paragraphs)
        for argument in command.arguments {
            lines += [".TP", Roff.italic(argument.valueName)] + Roff.fill(argument.help)
        }
        for option in command.options {
            lines += [".TP", Self.label(option)] + Roff.fill(option.helpWithValues)
        }
        return lines + command.subcommands.flatMap { entries(for: path + [$0]) }
    }

    private var exitStatus: [String] {
        let general = Discussion(root.discussion).exitCodes
        guard !general.isEmpty else { return [] }
        var lines = [#".SH "EXIT STATUS""#]
        for code in general {
            lines += [".TP", Roff.bold(code.status)] + Roff.fill(code.meaning)
        }
        for (names, code) in commandExitCodes(path: [root]) where !general.contains(where: { $0.status == code.status })
        {
            lines += [".TP", Roff.bold(code.status)] + Roff.fill("\(names): \(code.meaning)")
        }
        return lines
    }

    /// The exit codes listed by the commands below the root, with the command's full name.
    private func commandExitCodes(path: [Command]) -> [(String, Discussion.ExitCode)] {
        path[path.count - 1].subcommands.flatMap { command -> [(String, Discussion.ExitCode)] in
            let names = (path + [command]).map(\.name).joined(separator: " ")
            return Discussion(command.discussion).exitCodes.map { (names, $0) }
                + commandExitCodes(path: path + [command])
        }
    }

    private var environment: [String] {
        Self.entries(manual.environment, title: "ENVIRONMENT", term: Roff.bold)
    }

    private var files: [String] {
        Self.entries(manual.files, title: "FILES", term: Roff.italic)
    }

    private var examples: [String] {
        guard !manual.examples.isEmpty else { return [] }
        return [".SH EXAMPLES"]
            + manual.examples.flatMap { example in
                [".PP"] + Roff.fill(example.text) + Self.verbatim(example.commands)
            }
    }

    private var seeAlso: [String] {
        guard !manual.seeAlso.isEmpty else { return [] }
        let references = manual.seeAlso.enumerated().map { index, reference -> String in
            let comma = index < manual.seeAlso.count - 1 ? "," : ""
            guard let open = reference.firstIndex(of: "(") else { return Roff.escape(reference + comma) }
            return
                #".BR "\#(Roff.escape(String(reference[..<open])))" "\#(Roff.escape(String(reference[open...])))\#(comma)""#
        }
        return [#".SH "SEE ALSO""#] + references
    }

    // MARK: - Pieces

    private static func entries(_ entries: [ManualPage.Entry], title: String, term: (String) -> String) -> [String] {
        guard !entries.isEmpty else { return [] }
        return [".SH \(title)"] + entries.flatMap { [".TP", term($0.term)] + Roff.fill($0.text) }
    }

    /// Paragraphs of help text: running text as filled lines, indented lines kept as written.
    private static func paragraphs(_ paragraphs: [Discussion.Paragraph]) -> [String] {
        paragraphs.flatMap { runs in
            [".PP"]
                + runs.flatMap { run -> [String] in
                    switch run {
                    case .text(let lines): Roff.fill(lines.joined(separator: " "))
                    case .verbatim(let lines): verbatim(lines)
                    }
                }
        }
    }

    /// Lines shown as written, indented, in a constant-width font.
    private static func verbatim(_ lines: [String]) -> [String] {
        [".RS 4", ".EX"] + lines.map { $0.isEmpty ? "" : Roff.textLine($0) } + [".EE", ".RE"]
    }

    /// `--name value`: the option in bold, its value's placeholder in italics.
    private static func label(_ option: Option) -> String {
        var text = Roff.bold(option.longName)
        if let valueName = option.valueName { text += " " + Roff.italic(valueName) }
        if let inline = option.inlineValueName { text += "[=" + Roff.italic(inline) + "]" }
        return text
    }

    private static func synopsis(_ argument: Argument) -> String {
        argument.isOptional ? "[" + Roff.italic(argument.valueName) + "]" : Roff.italic(argument.valueName)
    }

    private static func synopsis(_ option: Option) -> String {
        var text = label(option)
        if option.isRepeating { text += " ..." }
        return option.isRequired ? text : "[" + text + "]"
    }
}
