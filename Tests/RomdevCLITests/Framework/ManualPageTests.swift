import Foundation
import TestSupport
import Testing

@testable import RomdevCLI

/// A formatter from the usual places, or nil when it is not installed.
private func tool(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
}

private let mandoc = tool("mandoc")
private let groff = tool("groff")

/// Runs `executable` with `input` on stdin; returns its status and stdout + stderr.
private func run(_ executable: String, _ arguments: [String], input: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let stdin = Pipe(), output = Pipe()
    process.standardInput = stdin
    process.standardOutput = output
    process.standardError = output
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Prints `help --man` with a fixed clock and environment.
private func manualPage(_ tool: CommandLineTool = Romdev.tool, environment: [String: String] = [:]) throws -> String {
    guard case .run(let action) = try tool.parse(["help", "--man"]) else {
        throw UsageError("help --man did not give an action")
    }
    var page = ""
    let context = CommandContext(
        environment: environment, now: { Date(timeIntervalSince1970: 1_780_817_400) },
        defaultTimeZone: TimeZone(identifier: "UTC")!, output: TextOutput { page += $0 })
    try action.run(in: context)
    return page
}

/// The lines of the page from `heading` up to the next heading of the same or a higher level.
private func section(_ heading: String, in page: String) -> [Substring] {
    let lines = page.split(separator: "\n")
    guard let start = lines.firstIndex(where: { $0 == heading }) else { return [] }
    let rest = lines[(start + 1)...]
    let level = heading.prefix(3)
    let end = rest.firstIndex { $0.hasPrefix(".SH") || (level == ".SS" && $0.hasPrefix(".SS")) } ?? rest.endIndex
    return Array(rest[..<end])
}

/// Every command below `path`, each with its full path, depth first.
private func commandPaths(_ path: [Command]) -> [[Command]] {
    path[path.count - 1].subcommands.flatMap { [path + [$0]] + commandPaths(path + [$0]) }
}

@Suite struct ManualPageTests {
    @Test func everyCommandHasAnEntryWithItsOptionsAndArguments() throws {
        let page = try manualPage()
        let paths = commandPaths([Romdev.tool.root])
        #expect(paths.count > Romdev.commands.count, "groups and their subcommands")
        for path in paths {
            let names = path.map(\.name).joined(separator: " ")
            let entry = section(#".SS "\#(names)""#, in: page).joined(separator: "\n")
            #expect(!entry.isEmpty, "no entry for \(names)")
            let command = path[path.count - 1]
            #expect(entry.contains(Roff.fill(command.abstract).joined(separator: "\n")), "\(names): abstract")
            for option in command.options {
                #expect(entry.contains(".TP\n\\fB\(Roff.escape(option.longName))\\fR"), "\(names): \(option.longName)")
            }
            for argument in command.arguments {
                #expect(entry.contains(".TP\n\(Roff.italic(argument.valueName))"), "\(names): <\(argument.valueName)>")
            }
        }
    }

    @Test func sectionsComeInManualOrder() throws {
        let headings = try manualPage().split(separator: "\n").filter { $0.hasPrefix(".SH") }
        #expect(
            headings == [
                ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH COMMANDS", #".SH "EXIT STATUS""#,
                ".SH ENVIRONMENT", ".SH FILES", ".SH EXAMPLES", #".SH "SEE ALSO""#,
            ])
    }

    @Test func headerNamesSectionEightAndTheVersion() throws {
        let page = try manualPage(environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(
            page.split(separator: "\n").contains(
                #".TH ROMDEV 8 2023-11-14 "romdev \#(Roff.escape(Romdev.version))" "System Administration""#))
    }

    @Test func withoutSourceDateEpochThePageIsDatedToday() throws {
        #expect(try manualPage().contains(".TH ROMDEV 8 2026-06-07 "))
    }

    @Test func malformedSourceDateEpochIsAFailure() throws {
        #expect(throws: CommandFailure.self) { try manualPage(environment: ["SOURCE_DATE_EPOCH": "yesterday"]) }
    }

    @Test func exitStatusListsTheToolsCodesThenThoseOfSingleCommands() throws {
        let general = Discussion(Romdev.tool.root.discussion).exitCodes.map(\.status)
        #expect(general.contains("0") && general.contains("1") && general.contains("64"))
        let listed = section(#".SH "EXIT STATUS""#, in: try manualPage())
        for status in general {
            #expect(listed.contains { $0 == "\\fB\(status)\\fR" }, "status \(status)")
        }

        let daemon = Command(
            name: "serve", abstract: "Serve.",
            discussion: "Runs.\n\nEXIT CODES:\n  0     Stopped.\n  78    The configuration\n        cannot be used.",
            make: { _ in ManualPageAction(tool: SampleTool.tool) })
        let tool = CommandLineTool(
            root: Command(
                name: "sample", abstract: "A sample tool.",
                discussion: "EXIT CODES:\n  0     Success.\n  1     Failure.",
                subcommands: [daemon]),
            version: "1.2.3")
        #expect(
            section(#".SH "EXIT STATUS""#, in: try manualPage(tool)) == [
                ".TP", "\\fB0\\fR", "Success.", ".TP", "\\fB1\\fR", "Failure.",
                ".TP", "\\fB78\\fR", "sample serve: The configuration cannot be used.",
            ])
    }

    @Test func helpManTakesNothingElse() {
        #expect(SampleTool.usageError(["help", "--man", "greet"])?.message == "Unexpected argument 'greet'")
    }

    @Test func roffEscapesRequestsBackslashesHyphensAndNonASCII() {
        #expect(Roff.fill(".hidden request -x a\\b 45°") == [#"\&.hidden request \-x a\eb 45\[u00B0]"#])
        #expect(Roff.fill(String(repeating: "word ", count: 30)).allSatisfy { $0.utf8.count <= 79 })
        #expect(Roff.fill("say \"hi\"") == [#"say \(dqhi\(dq"#])
    }

    @Test func discussionKeepsIndentedLinesAsWritten() {
        let discussion = Discussion("Writes rows:\n\n  a,b\n    c\n\nText one\nand two.")
        #expect(
            discussion.paragraphs == [
                [.text(["Writes rows:"])], [.verbatim(["a,b", "  c"])], [.text(["Text one", "and two."])],
            ])
    }

    @Test(.enabled(if: mandoc != nil, "mandoc is not installed"))
    func mandocFindsNothingToWarnAbout() throws {
        let result = try run(try #require(mandoc), ["-Tlint", "-W", "warning"], input: try manualPage())
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test(.enabled(if: groff != nil, "groff is not installed"))
    func groffFormatsWithoutWarnings() throws {
        let result = try run(try #require(groff), ["-man", "-Tutf8", "-ww", "-z"], input: try manualPage())
        // As lintian does, accept the lines the formatter could not fill evenly: long paths and
        // element specs have no place to break at 80 columns.
        let warnings = result.output.split(separator: "\n").filter {
            !$0.contains("cannot adjust line") && !$0.contains("can't break line")
        }
        #expect(result.status == 0 && warnings.isEmpty, "\(result.output)")
    }

    @Test func romdevPrintsItsManualPage() throws {
        let result = try RomdevProcess.run(["help", "--man"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#".\" romdev(8)"#))
        #expect(result.stdout.contains(".TH ROMDEV 8 2023-11-14 "))
    }
}
