import Testing

@testable import RomdevCLI

@Suite struct HelpTextTests {
    @Test func leafCommandHelpInArgumentParserLayout() throws {
        #expect(
            try SampleTool.tool.helpText(for: ["greet"]) == """
                OVERVIEW: Greet someone.

                USAGE: sample greet <name> [<extra>] --count <n> [--kind <kind>] [--tag <tag> ...] [--json]

                ARGUMENTS:
                  <name>                  Who to greet.
                  <extra>                 An optional word.

                OPTIONS:
                  --count <n>             How many times.
                  --kind <kind>           The kind of average to provide. (values: mean, median,
                                          mode; default: mean)
                  --tag <tag>             A tag; may be repeated.
                  --json                  Print JSON.
                  --version               Show the version.
                  -h, --help              Show help information.

                """)
    }

    @Test func groupHelpListsSubcommands() throws {
        #expect(
            try SampleTool.tool.helpText(for: []) == """
                OVERVIEW: A sample tool.

                USAGE: sample <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  greet                   Greet someone.
                  thing                   Manage things.

                  See 'sample help <subcommand>' for detailed help.

                """)
        #expect(
            try SampleTool.tool.helpText(for: ["thing"]).hasSuffix(
                """
                SUBCOMMANDS:
                  add                     Add something.
                  remove                  Remove something.

                  See 'sample help thing <subcommand>' for detailed help.

                """))
    }

    @Test func longLabelPutsHelpOnTheNextLine() {
        #expect(
            HelpGenerator.row("--a-very-long-option <value>", "Help.") == """
                  --a-very-long-option <value>
                                          Help.

                """)
        // A 23-character label still fits before column 26, with one space.
        #expect(HelpGenerator.row("--twenty-three-chars-xx", "Help.") == "  --twenty-three-chars-xx Help.\n")
        #expect(
            HelpGenerator.row("--twenty-four-chars-xxxx", "Help.") == "  --twenty-four-chars-xxxx\n"
                + String(repeating: " ", count: 26) + "Help.\n")
    }

    @Test func wrapsAtWordsAndKeepsNewlines() {
        #expect(HelpGenerator.wrap("aa bb cc", width: 5) == ["aa bb", "cc"])
        #expect(HelpGenerator.wrap("one\ntwo", width: 80) == ["one", "two"])
        #expect(HelpGenerator.wrap("abcdefgh ij", width: 4) == ["abcdefgh", "ij"])
    }

    @Test func foldsOptionalOptionsWhenThereAreMoreThanTwelve() {
        let options =
            (1...13).map { Option.flag("flag\($0)", help: "A flag.") }
            + [Option.value("must", valueName: "m", help: "Required.", isRequired: true)]
        let command = Command(
            name: "big", abstract: "Big.", arguments: [Argument("x", help: "X.")], options: options,
            make: { SampleTool.Recorded(values: $0) })
        let root = Command(name: "tool", abstract: "Tool.", subcommands: [command])
        #expect(HelpGenerator(path: [root, command]).usage == "tool big [<options>] <x> --must <m>")
    }
}
