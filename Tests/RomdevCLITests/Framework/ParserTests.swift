import Testing

@testable import RomdevCLI

@Suite struct ParserTests {
    // MARK: - Values

    @Test func readsSeparateAndInlineOptionValues() throws {
        let separate = try SampleTool.values(["greet", "ann", "--count", "3"])
        let inline = try SampleTool.values(["greet", "ann", "--count=3"])
        #expect(separate == inline)
        #expect(separate.string(SampleTool.count) == "3")
        #expect(separate.string(SampleTool.name) == "ann")
    }

    @Test func keepsRepeatedValuesInOrder() throws {
        let values = try SampleTool.values(["greet", "ann", "--count", "1", "--tag", "a", "--tag=b", "--tag", "c"])
        #expect(values.strings(SampleTool.tag) == ["a", "b", "c"])
    }

    @Test func readsFlagsAndDefaults() throws {
        let values = try SampleTool.values(["greet", "--json", "ann", "--count", "1"])
        #expect(values.isSet(SampleTool.json))
        #expect(values.string(SampleTool.kind) == "mean")
        #expect(values.string(SampleTool.extra) == nil)
        let plain = try SampleTool.values(["greet", "ann", "--count", "1"])
        #expect(!plain.isSet(SampleTool.json))
    }

    @Test func takesWordsAfterDoubleDashAsArguments() throws {
        let values = try SampleTool.values(["greet", "--count", "1", "--", "--json", "-x"])
        #expect(values.string(SampleTool.name) == "--json")
        #expect(values.string(SampleTool.extra) == "-x")
        #expect(!values.isSet(SampleTool.json))
    }

    @Test func acceptsNegativeNumbersAsValuesAndArguments() throws {
        let values = try SampleTool.values(["greet", "-5", "--count", "-1"])
        #expect(values.string(SampleTool.name) == "-5")
        #expect(values.string(SampleTool.count) == "-1")
    }

    @Test func convertsValuesWithTransforms() throws {
        let values = try SampleTool.values(["greet", "ann", "--count", "x3"])
        #expect(throws: UsageError.invalidValue("x3", for: "--count <n>", help: "--count <n>  How many times.")) {
            _ = try values.required(SampleTool.count) { Int($0) }
        }
        struct Reason: Error, CustomStringConvertible { var description: String { "too big" } }
        #expect { _ = try values.value(SampleTool.count) { _ -> Int? in throw Reason() } } throws: {
            ($0 as? UsageError)?.message == "The value 'x3' is invalid for '--count <n>': too big"
        }
    }

    // MARK: - Usage errors

    @Test(arguments: [
        (["greet", "ann", "--cout", "1"], "Unknown option '--cout'. Did you mean '--count'?"),
        (["greet", "ann", "--frobnicate"], "Unknown option '--frobnicate'"),
        (["greet", "ann", "-x"], "Unknown option '-x'"),
        (["greet", "--count", "1"], "Missing expected argument '<name>'"),
        (["greet", "ann"], "Missing expected argument '--count <n>'"),
        (["greet", "ann", "--count"], "Missing value for '--count <n>'"),
        (["greet", "ann", "--count", "--json"], "Missing value for '--count <n>'"),
        (
            ["greet", "ann", "--count", "1", "--kind", "ZZZ"],
            "The value 'ZZZ' is invalid for '--kind <kind>'. Please provide one of 'mean', 'median' or 'mode'."
        ),
        (
            ["greet", "ann", "--count", "1", "--json=yes"],
            "The option '--json' does not take any value, but 'yes' was specified."
        ),
        (["greet", "ann", "--count", "1", "--count", "2"], "The option '--count' was given more than once"),
        (["greet", "ann", "--count", "1", "--json", "--json"], "The option '--json' was given more than once"),
        (["greet", "ann", "b", "c", "--count", "1"], "Unexpected argument 'c'"),
        (["greet", "ann", "b", "c", "d", "--count", "1"], "2 unexpected arguments: 'c', 'd'"),
        (["gret"], "Unexpected argument 'gret'. Did you mean 'greet'?"),
        (["zzzzzzz"], "Unexpected argument 'zzzzzzz'"),
        (["thing", "ad", "x"], "Unexpected argument 'ad'. Did you mean 'add'?"),
        (["thing", "--json"], "Unknown option '--json'"),
    ])
    func reportsUsageErrors(arguments: [String], message: String) {
        #expect(SampleTool.usageError(arguments)?.message == message)
    }

    @Test func usageErrorNamesTheCommandAndItsUsage() throws {
        let error = try #require(SampleTool.usageError(["thing", "add"]))
        #expect(
            error.report == """
                Error: Missing expected argument '<name>'
                Help:  <name>  Who to greet.
                Usage: sample thing add <name> [--json]
                  See 'sample thing add --help' for more information.

                """)
    }

    // MARK: - Help and version

    @Test func helpIsTheSameHoweverItIsAsked() throws {
        let expected = try SampleTool.tool.helpText(for: ["thing", "add"])
        for arguments in [
            ["thing", "add", "--help"], ["thing", "add", "-h"], ["help", "thing", "add"],
            ["thing", "add", "x", "--bogus", "--help"],
        ] {
            guard case .help(let text) = try SampleTool.tool.parse(arguments) else {
                Issue.record("no help for \(arguments)")
                continue
            }
            #expect(text == expected)
        }
    }

    @Test func groupAloneOrBareToolPrintsItsHelp() throws {
        guard case .help(let group) = try SampleTool.tool.parse(["thing"]),
            case .help(let root) = try SampleTool.tool.parse([])
        else {
            Issue.record("expected help")
            return
        }
        let groupHelp = try SampleTool.tool.helpText(for: ["thing"])
        let rootHelp = try SampleTool.tool.helpText(for: [])
        #expect(group == groupHelp)
        #expect(root == rootHelp)
    }

    @Test func versionAnywhereBeforeDoubleDash() throws {
        for arguments in [["--version"], ["greet", "--version"], ["thing", "add", "--version"]] {
            guard case .version(let version) = try SampleTool.tool.parse(arguments) else {
                Issue.record("no version for \(arguments)")
                continue
            }
            #expect(version == "1.2.3")
        }
        let values = try SampleTool.values(["greet", "--count", "1", "--", "--version"])
        #expect(values.string(SampleTool.name) == "--version")
    }

    @Test func suggestsOnlyCloseNames() {
        #expect("--cout".closest(in: ["--count", "--kind"]) == "--count")
        #expect("--xyzzy".closest(in: ["--count", "--kind"]) == nil)
        #expect("kitten".editDistance(to: "sitting") == 3)
        #expect("".editDistance(to: "abc") == 3)
    }
}
