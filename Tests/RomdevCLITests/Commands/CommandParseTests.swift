import Foundation
import Testing

@testable import RomdevCLI

/// Command lines parse into typed actions without touching a store.
@Suite struct CommandParseTests {
    func action<T>(_ arguments: [String], as type: T.Type) throws -> T {
        guard case .run(let action) = try Romdev.tool.parse(arguments) else {
            throw UsageError("not a run invocation")
        }
        return try #require(action as? T)
    }

    func usageMessage(_ arguments: [String]) -> String? {
        do {
            _ = try Romdev.tool.parse(arguments)
            return nil
        } catch {
            return (error as? UsageError)?.message
        }
    }

    @Test func initWithDefaults() throws {
        let command = try action(["init"], as: InitCommand.self)
        #expect(command == InitCommand(startDay: nil, limb: .left, timeZone: nil, store: StoreOptions(path: nil)))
    }

    @Test func initWithEverything() throws {
        let command = try action(
            ["init", "--start=2026-06-07", "--limb", "right", "--tz", "Europe/Paris", "--store", "/tmp/x"],
            as: InitCommand.self)
        #expect(
            command
                == InitCommand(
                    startDay: DateArgument("2026-06-07"), limb: .right,
                    timeZone: TimeZone(identifier: "Europe/Paris"), store: StoreOptions(path: "/tmp/x")))
    }

    @Test func checkinReadsNumbers() throws {
        let command = try action(
            ["checkin", "--pain", "3", "--sleep", "7.5", "--date", "2026-06-08"], as: CheckinCommand.self)
        #expect(
            command
                == CheckinCommand(
                    painScore: 3, sleepHours: 7.5, day: DateArgument("2026-06-08"), store: StoreOptions(path: nil)))
        // Out-of-range numbers parse: the care rules refuse them when the command runs (exit 1).
        #expect(try action(["checkin", "--pain", "11", "--sleep", "13"], as: CheckinCommand.self).painScore == 11)
    }

    @Test func taskAddCollectsElements() throws {
        let command = try action(
            [
                "task", "add", "stretch", "--title", "Stretch", "--impacts-adherence", "false",
                "--element", "start=2026-06-07,every=1d,duration=allday", "--element=start=2026-06-07T20:00,every=1w",
            ], as: TaskAddCommand.self)
        #expect(command.id == "stretch")
        #expect(command.title == "Stretch")
        #expect(command.impactsAdherence == false)
        #expect(command.elements.map(\.interval) == [.days(1), .weeks(1)])
    }

    @Test func taskUpdateLeavesOutWhatIsNotGiven() throws {
        let command = try action(
            ["task", "update", "checkin", "--effective", "2026-06-10T00:00"], as: TaskUpdateCommand.self)
        #expect(command.title == nil && command.instructions == nil && command.impactsAdherence == nil)
        #expect(command.elements.isEmpty)
        #expect(command.effective == DateArgument("2026-06-10T00:00"))
    }

    @Test func outcomesFormats() throws {
        #expect(try action(["outcomes"], as: OutcomesCommand.self).format == .text)
        #expect(try action(["outcomes", "--json"], as: OutcomesCommand.self).format == .json)
        #expect(try action(["outcomes", "--csv", "--task", "checkin"], as: OutcomesCommand.self).format == .csv)
    }

    @Test func outcomeDeleteReadsTheOccurrence() throws {
        let command = try action(
            ["outcome", "delete", "--task", "checkin", "--occurrence", "4"], as: OutcomeDeleteCommand.self)
        #expect(command.taskID == "checkin" && command.occurrenceIndex == 4)
    }

    @Test(arguments: [
        (["checkin", "--pain", "ZZZ", "--sleep", "7"], "The value 'ZZZ' is invalid for '--pain <n>'"),
        (["checkin", "--pain", "nan", "--sleep", "7"], "The value 'nan' is invalid for '--pain <n>'"),
        (["checkin", "--sleep", "7"], "Missing expected argument '--pain <n>'"),
        (["checkin", "--pian", "3", "--sleep", "7"], "Unknown option '--pian'. Did you mean '--pain'?"),
        (
            ["checkin", "--pain", "3", "--sleep", "7", "--date", "June 7"],
            "The value 'June 7' is invalid for '--date <date>': expected an ISO 8601 date such as 2026-06-07, 2026-06-07T08:00 or 2026-06-07T08:00+02:00"
        ),
        (
            ["init", "--limb", "middle"],
            "The value 'middle' is invalid for '--limb <limb>'. Please provide one of 'left' and 'right'."
        ),
        (
            ["init", "--tz", "Mars/Olympus"],
            "The value 'Mars/Olympus' is invalid for '--tz <zone>': unknown time zone (use an IANA name such as Europe/Paris or UTC)"
        ),
        (["onboard"], "Missing expected argument '--consent-by <name>'"),
        (["onboard", "--consent-by", "  "], "The value '  ' is invalid for '--consent-by <name>'"),
        (["today", "--json", "--json"], "The option '--json' was given more than once"),
        (["today", "extra"], "Unexpected argument 'extra'"),
        (["task", "add", "--element", "start=2026-06-07,every=1d"], "Missing expected argument '<id>'"),
        (["task", "add", "x"], "Missing expected argument '--element <spec>'"),
        (
            ["task", "add", "bad id", "--element", "start=2026-06-07,every=1d"],
            "The value 'bad id' is invalid for '<id>'"
        ),
        (
            ["task", "add", "x", "--element", "start=2026-06-07,every=1d,colour=red"],
            "The value 'start=2026-06-07,every=1d,colour=red' is invalid for '--element <spec>': unknown field 'colour' (fields: start, end, every, duration, text)"
        ),
        (
            ["task", "add", "x", "--element", "start=2026-06-07,every=1d", "--impacts-adherence", "yes"],
            "The value 'yes' is invalid for '--impacts-adherence <bool>'. Please provide one of 'true' and 'false'."
        ),
        (["task", "remove", "x"], "Unexpected argument 'remove'"),
        (["task", "delet", "x"], "Unexpected argument 'delet'. Did you mean 'delete'?"),
        (["events", "--task", "checkin", "--from", "2026-06-07"], "Missing expected argument '--to <date>'"),
        (["outcomes", "--json", "--csv"], "Use only one of '--json' and '--csv'"),
        (
            ["outcome", "delete", "--task", "checkin", "--occurrence", "-1"],
            "The value '-1' is invalid for '--occurrence <n>'"
        ),
        (["adherence", "--from", "2026-06-07"], "Missing expected argument '--to <date>'"),
        (["export"], "Missing expected argument '--format <format>'"),
        (
            ["export", "--format", "xml"],
            "The value 'xml' is invalid for '--format <format>'. Please provide one of 'csv' and 'json'."
        ),
        (["tday"], "Unexpected argument 'tday'. Did you mean 'today'?"),
    ])
    func refusesMalformedCommandLines(arguments: [String], message: String) {
        #expect(usageMessage(arguments) == message)
    }

    @Test func everyCommandHasHelpAndIsListed() throws {
        let root = try Romdev.tool.helpText(for: [])
        for command in Romdev.commands {
            #expect(root.contains("\n  \(command.name) "))
            #expect(!command.abstract.isEmpty)
            for sub in command.subcommands {
                let help = try Romdev.tool.helpText(for: [command.name, sub.name])
                #expect(help.hasPrefix("OVERVIEW: \(sub.abstract)"))
            }
        }
    }
}
