@testable import RomdevCLI

/// A small tool in the shape of swift-argument-parser's `math` example, to test the parser and
/// help generator apart from romdev's own commands.
enum SampleTool {
    /// An action that only keeps what was parsed.
    struct Recorded: CommandAction {
        let values: ParsedValues
        func run(in context: CommandContext) throws {}
    }

    static let count = Option.value("count", valueName: "n", help: "How many times.", isRequired: true)
    static let kind = Option.value(
        "kind", valueName: "kind", help: "The kind of average to provide.",
        allowedValues: ["mean", "median", "mode"], defaultValue: "mean")
    static let tag = Option.value("tag", valueName: "tag", help: "A tag; may be repeated.", isRepeating: true)
    static let json = Option.flag("json", help: "Print JSON.")
    static let name = Argument("name", help: "Who to greet.")
    static let extra = Argument("extra", help: "An optional word.", isOptional: true)

    static let greet = Command(
        name: "greet", abstract: "Greet someone.", arguments: [name, extra], options: [count, kind, tag, json],
        make: { Recorded(values: $0) })
    static let add = Command(
        name: "add", abstract: "Add something.", arguments: [name], options: [json], make: { Recorded(values: $0) })
    static let remove = Command(
        name: "remove", abstract: "Remove something.", arguments: [name], make: { Recorded(values: $0) })
    static let group = Command(name: "thing", abstract: "Manage things.", subcommands: [add, remove])

    static let tool = CommandLineTool(
        root: Command(name: "sample", abstract: "A sample tool.", subcommands: [greet, group]),
        version: "1.2.3")

    /// The parsed values of a command line that must run.
    static func values(_ arguments: [String]) throws -> ParsedValues {
        guard case .run(let action) = try tool.parse(arguments), let recorded = action as? Recorded else {
            throw UsageError("not a run invocation")
        }
        return recorded.values
    }

    /// The usage error of a command line that must fail.
    static func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try tool.parse(arguments)
            return nil
        } catch {
            return error as? UsageError
        }
    }
}
