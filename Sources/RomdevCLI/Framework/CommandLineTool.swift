import LinuxSystem

/// A tool made of a root ``Command`` and a version: parses a command line into an ``Invocation``
/// and renders help.
///
/// Parsing follows swift-argument-parser: subcommand words first, then options (`--name value`,
/// `--name=value`, flags) and positional arguments in any order, `--` ends options. `--help`, `-h`
/// and `help <command…>` ask for help, `--version` for the version, wherever they appear before `--`.
/// `help --man` asks for the manual page.
public struct CommandLineTool: Sendable {
    /// The root command; its name is the tool's name.
    public let root: Command
    /// The one-line version printed by `--version`.
    public let version: String
    /// The manual page's sections that the command table cannot supply.
    public let manual: ManualPage

    /// Creates a tool.
    public init(root: Command, version: String, manual: ManualPage = ManualPage()) {
        self.root = root
        self.version = version
        self.manual = manual
    }

    /// Parses the arguments after the tool name.
    ///
    /// - Throws: ``UsageError`` with the command path and usage line filled in.
    public func parse(_ arguments: [String]) throws -> Invocation {
        var path = [root]
        var index = 0
        var current: Command { path[path.count - 1] }

        func fail(_ error: UsageError) -> UsageError {
            var error = error
            error.commandPath = path.map(\.name)
            error.usage = HelpGenerator(path: path).usage
            return error
        }

        // `help --man`: the whole tool's manual page, nothing else on the line.
        if arguments.first == "help", arguments.dropFirst().first == "--man", !root.subcommands.isEmpty {
            if let extra = arguments.dropFirst(2).first {
                throw fail(UsageError("Unexpected argument '\(TerminalText.excerpt(extra))'"))
            }
            return .run(ManualPageAction(tool: self))
        }

        // `help [command…]` at the top of any group.
        if let first = arguments.first, first == "help", !root.subcommands.isEmpty {
            for word in arguments.dropFirst() {
                guard let sub = current.subcommand(named: word) else {
                    throw fail(unexpected(word, subcommands: current.subcommands))
                }
                path.append(sub)
            }
            return .help(HelpGenerator(path: path).help)
        }

        while index < arguments.count, !current.subcommands.isEmpty, !arguments[index].hasPrefix("-") {
            guard let sub = current.subcommand(named: arguments[index]) else {
                throw fail(unexpected(arguments[index], subcommands: current.subcommands))
            }
            path.append(sub)
            index += 1
        }

        let rest = Array(arguments[index...])
        let beforeTerminator = rest.prefix { $0 != "--" }
        if beforeTerminator.contains(where: { $0 == "--help" || $0 == "-h" }) {
            return .help(HelpGenerator(path: path).help)
        }
        if beforeTerminator.contains("--version") {
            return .version(version)
        }
        guard let make = current.make else {
            if let word = rest.first {
                throw fail(
                    word.hasPrefix("-")
                        ? unknownOption(word, in: current) : unexpected(word, subcommands: current.subcommands))
            }
            return .help(HelpGenerator(path: path).help)
        }

        do {
            let values = try parseValues(rest, for: current)
            return .run(try make(values))
        } catch let error as UsageError {
            throw fail(error)
        }
    }

    /// The help text of the command at `path` (command names after the root), as `--help` prints it.
    public func helpText(for path: [String]) throws -> String {
        var commands = [root]
        for name in path {
            guard let sub = commands[commands.count - 1].subcommand(named: name) else {
                throw UsageError("Unexpected argument '\(TerminalText.excerpt(name))'")
            }
            commands.append(sub)
        }
        return HelpGenerator(path: commands).help
    }

    // MARK: - Options and arguments of a leaf command

    private func parseValues(_ words: [String], for command: Command) throws -> ParsedValues {
        var values = ParsedValues()
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false

        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" || Double(word) != nil {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            guard word.hasPrefix("--") else { throw UsageError("Unknown option '\(TerminalText.excerpt(word))'") }
            let (name, inlineValue) = Self.split(word)
            guard let option = command.options.first(where: { $0.longName == name }) else {
                throw unknownOption(name, in: command)
            }
            if option.isFlag {
                guard !values.flags.contains(option.name) else { throw repeated(option) }
                if let inlineValue {
                    guard option.inlineValueName != nil else {
                        throw UsageError(
                            "The option '\(option.longName)' does not take any value, but '\(TerminalText.excerpt(inlineValue))' was specified."
                        )
                    }
                    try Self.check(inlineValue, allowedBy: option)
                    values.optionValues[option.name] = [inlineValue]
                }
                values.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < words.count, !words[index].hasPrefix("--") {
                value = words[index]
                index += 1
            } else {
                throw UsageError("Missing value for '\(option.label)'", argumentHelp: "\(option.label)  \(option.help)")
            }
            try Self.check(value, allowedBy: option)
            if !option.isRepeating, values.optionValues[option.name] != nil { throw repeated(option) }
            values.optionValues[option.name, default: []].append(value)
        }

        for argument in command.arguments {
            if positionals.isEmpty { break }
            values.argumentValues[argument.valueName] = positionals.removeFirst()
        }
        switch positionals.count {
        case 0: break
        case 1: throw UsageError("Unexpected argument '\(TerminalText.excerpt(positionals[0]))'")
        default:
            let shown = positionals.prefix(3).map(TerminalText.excerpt).joined(separator: "', '")
            throw UsageError(
                "\(positionals.count) unexpected arguments: '\(shown)'\(positionals.count > 3 ? ", …" : "")")
        }
        for argument in command.arguments where !argument.isOptional && values.argumentValues[argument.valueName] == nil
        {
            throw UsageError(
                "Missing expected argument '\(argument.label)'", argumentHelp: "\(argument.label)  \(argument.help)")
        }
        for option in command.options where option.isRequired && values.optionValues[option.name] == nil {
            throw UsageError(
                "Missing expected argument '\(option.label)'", argumentHelp: "\(option.label)  \(option.help)")
        }
        return values
    }

    /// `--name=value` → (`--name`, `value`); `--name` → (`--name`, nil).
    /// Refuses a value outside the option's allowed values.
    private static func check(_ value: String, allowedBy option: Option) throws(UsageError) {
        guard !option.allowedValues.isEmpty, !option.allowedValues.contains(value) else { return }
        throw UsageError(
            "The value '\(TerminalText.excerpt(value))' is invalid for '\(option.label)'. Please provide one of \(Self.list(option.allowedValues)).",
            argumentHelp: "\(option.label)  \(option.help)")
    }

    private static func split(_ word: String) -> (String, String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// `'a' and 'b'`, or `'a', 'b' or 'c'`.
    private static func list(_ values: [String]) -> String {
        let quoted = values.map { "'\($0)'" }
        guard quoted.count > 2 else { return quoted.joined(separator: " and ") }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
    }

    private func unknownOption(_ name: String, in command: Command) -> UsageError {
        let candidates = command.options.map(\.longName) + ["--help", "--version"]
        guard name.hasPrefix("--"), let suggestion = name.closest(in: candidates) else {
            return UsageError("Unknown option '\(TerminalText.excerpt(name))'")
        }
        return UsageError("Unknown option '\(TerminalText.excerpt(name))'. Did you mean '\(suggestion)'?")
    }

    private func unexpected(_ word: String, subcommands: [Command]) -> UsageError {
        guard let suggestion = word.closest(in: subcommands.map(\.name)) else {
            return UsageError("Unexpected argument '\(TerminalText.excerpt(word))'")
        }
        return UsageError("Unexpected argument '\(TerminalText.excerpt(word))'. Did you mean '\(suggestion)'?")
    }

    private func repeated(_ option: Option) -> UsageError {
        UsageError(
            "The option '\(option.longName)' was given more than once", argumentHelp: "\(option.label)  \(option.help)")
    }
}
