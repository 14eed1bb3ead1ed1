import Foundation
import TestSupport
import Testing

@testable import RomdevCLI

/// Every care command through the built `romdev` binary: stdout, stderr and exit status.
// Serialized: each case starts several processes, and running them all at once would only
// compete for the CPU with the rest of the suite.
@Suite(.serialized) struct CareEndToEndTests {
    /// A throwaway store reached through `ROMDEV_STORE`, in UTC.
    final class Store {
        let directory: TemporaryDirectory
        var environment: [String: String] {
            ["ROMDEV_STORE": directory.storePath, "HOME": directory.path, "TZ": "UTC"]
        }

        init() throws {
            directory = try TemporaryDirectory()
        }

        func run(_ arguments: [String]) throws -> RomdevProcess.Result {
            try RomdevProcess.run(arguments, environment: environment)
        }

        /// Runs a command that must succeed and returns its stdout.
        func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let result = try run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.isEmpty, sourceLocation: sourceLocation)
            return result.stdout
        }

        /// The tasks and every outcome, as the binary reports them.
        func snapshot() throws -> String {
            try ok(["tasks", "--json"]) + ok(["export", "--format", "json"])
        }

        /// Initialised today (UTC) and onboarded.
        static func onboarded() throws -> Store {
            let store = try Store()
            _ = try store.ok(["init", "--tz", "UTC"])
            _ = try store.ok(["onboard", "--consent-by", "Ann Example"])
            return store
        }
    }

    static var today: String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return LocalTime.day(Date(), calendar: calendar)
    }

    static func day(after days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return LocalTime.day(calendar.date(byAdding: .day, value: days, to: Date())!, calendar: calendar)
    }

    // MARK: - The walk-through

    @Test func carePlanWalkThrough() throws {
        let store = try Store()
        #expect(
            try store.ok(["init", "--tz", "UTC"]).hasPrefix("Created the care plan in \(store.directory.storePath)"))
        #expect(try store.ok(["init"]).hasPrefix("Already initialised; nothing changed"))
        #expect(try store.ok(["today"]).contains("Onboarding is not done yet: only onboarding is shown."))

        let before = try store.snapshot()
        let early = try store.run(["checkin", "--pain", "3", "--sleep", "7"])
        #expect(early.status == 1)
        #expect(
            early.stderr == """
                Error: could not record the check-in: cannot record 'checkin' before onboarding is done: complete onboarding first
                Hint: run 'romdev onboard --consent-by NAME' first

                """)
        #expect(try store.snapshot() == before)

        #expect(
            try store.ok(["onboard", "--consent-by", "Ann Example"]).hasPrefix(
                "Onboarding done on \(Self.today); consent by Ann Example."))
        #expect(
            try store.ok(["checkin", "--pain", "3", "--sleep", "7"])
                == "Recorded the check-in for \(Self.today) (occurrence 0): pain 3, sleep 7 h\n")
        let today = try store.ok(["today"])
        #expect(today.contains("Check In [checkin]\n  #0    08:00–09:00   done: pain 3, sleep 7 h"))
        #expect(today.contains("Adherence: 0.50 [#####-----] 50%"))
        let json = try store.ok(["today", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["onboarding_done"] as? Bool == true)
    }

    // MARK: - Each command

    @Test func tasksAndTaskChanges() throws {
        let store = try Store.onboarded()
        #expect(try store.ok(["tasks"]).contains("checkin  Check In"))
        #expect(
            try store.ok([
                "task", "add", "walk", "--title", "Walk",
                "--element", "start=\(Self.today)T18:00,every=1d,duration=30m",
            ]) == "Added task 'walk', effective \(Self.today)T18:00:00Z.\n")
        #expect(
            try store.ok(["task", "update", "walk", "--title", "Evening walk", "--effective", Self.day(after: 1)])
                == "Updated task 'walk': version 2, effective \(Self.day(after: 1))T00:00:00Z.\n")
        let tasks =
            try JSONSerialization.jsonObject(with: Data(try store.ok(["tasks", "--json"]).utf8)) as? [[String: Any]]
        #expect(tasks?.first { $0["id"] as? String == "walk" }?["title"] as? String == "Evening walk")
        #expect(
            try store.ok(["task", "delete", "walk"]) == "Deleted task 'walk'; its versions and outcomes are kept.\n")
        #expect(!(try store.ok(["tasks"])).contains("walk"))
    }

    @Test func eventsOutcomesAdherenceAndExport() throws {
        let store = try Store.onboarded()
        _ = try store.ok(["checkin", "--pain", "4", "--sleep", "6.5"])
        let events = try store.ok(["events", "--task", "checkin", "--from", Self.today, "--to", Self.day(after: 2)])
        #expect(
            events == """
                #0    \(Self.today) 08:00–09:00   done: pain 4, sleep 6.5 h
                #1    \(Self.day(after: 1)) 08:00–09:00   not done

                """)
        let eventsJSON = try store.ok([
            "events", "--task", "checkin", "--from", Self.today, "--to", Self.day(after: 1), "--json",
        ])
        #expect(eventsJSON.contains("\"start\": \"\(Self.today)T08:00:00Z\""))

        #expect(
            try store.ok(["outcomes", "--task", "checkin"]).hasPrefix(
                "checkin #0  \(Self.today)T08:00  pain 4, sleep 6.5 h"))
        let csv = try store.ok(["outcomes", "--csv"])
        #expect(csv.hasPrefix(OutcomeTable.columns.joined(separator: ",") + "\n"))
        #expect(csv.split(separator: "\n").count == 5)
        let outcomes =
            try JSONSerialization.jsonObject(with: Data(try store.ok(["outcomes", "--json"]).utf8)) as? [[String: Any]]
        #expect(outcomes?.map { $0["task_id"] as? String } == ["onboarding", "checkin"])

        #expect(
            try store.ok(["adherence", "--from", Self.today, "--to", Self.day(after: 1)])
                == "\(Self.today)  0.50 [#####-----] 50%\n")
        #expect(
            try store.ok(["adherence", "--from", Self.today, "--to", Self.day(after: 1), "--json"]).contains(
                "\"fraction\": 0.5"))

        let path = store.directory.path + "/export.csv"
        #expect(try store.ok(["export", "--format", "csv", "--output", path]) == "Exported 2 outcomes to \(path).\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == (try store.ok(["export", "--format", "csv"])))
        let export =
            try JSONSerialization.jsonObject(with: Data(try store.ok(["export", "--format", "json"]).utf8))
            as? [String: Any]
        #expect((export?["outcomes"] as? [Any])?.count == 2)

        #expect(
            try store.ok(["outcome", "delete", "--task", "checkin", "--occurrence", "0"])
                == "Deleted the outcome of 'checkin' occurrence 0 (event \(Self.today)T08:00).\n")
        #expect(try store.ok(["outcomes", "--task", "checkin"]) == "No outcomes.\n")
    }

    // MARK: - Usage errors: exit 64, nothing changed

    @Test(arguments: [
        ["init", "--limb", "middle"],
        ["init", "--tz", "Mars/Olympus"],
        ["onboard"],
        ["checkin", "--pain", "ZZZ", "--sleep", "7"],
        ["checkin", "--pain", "3"],
        ["today", "--date", "tomorrow"],
        ["today", "--jsn"],
        ["tasks", "extra"],
        ["task", "add", "x"],
        ["task", "add", "x", "--element", "start=2026-06-07,every=1q"],
        ["task", "update", "checkin", "--effective", "soon"],
        ["task", "delete"],
        ["task", "frobnicate"],
        ["events", "--task", "checkin", "--from", "2026-06-07"],
        ["outcomes", "--json", "--csv"],
        ["outcome", "delete", "--task", "checkin", "--occurrence", "first"],
        ["adherence", "--to", "2026-06-07"],
        ["export", "--format", "xml"],
        ["nosuchcommand"],
    ])
    func invalidArgumentsExit64(arguments: [String]) throws {
        let store = try Store.onboarded()
        let before = try store.snapshot()
        let result = try store.run(arguments)
        #expect(result.status == 64, "\(arguments)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("Error: ") == true)
        #expect(lines.contains { $0.hasPrefix("Usage: romdev") })
        #expect(result.stderr.hasSuffix(" --help' for more information.\n"))
        #expect(try store.snapshot() == before)
    }

    // MARK: - Refused values: exit 1, nothing changed

    /// A property, not a literal in `@Test(arguments:)`: an interpolated string there crashes
    /// Swift 6.0.3's compiler.
    static let refusals: [([String], String)] = [
        (
            ["checkin", "--pain", "0", "--sleep", "7"],
            "Error: could not record the check-in: pain must be a whole number from 1 to 10, got 0"
        ),
        (
            ["checkin", "--pain", "11", "--sleep", "7"],
            "Error: could not record the check-in: pain must be a whole number from 1 to 10, got 11"
        ),
        (
            ["checkin", "--pain", "3", "--sleep", "13"],
            "Error: could not record the check-in: sleep must be hours from 0 to 12 in steps of 0.5, got 13"
        ),
        (
            ["checkin", "--pain", "3", "--sleep", "7"],
            "Error: could not record the check-in: the check-in of \(Self.today) is already recorded\nHint: to replace it, first run 'romdev outcome delete --task checkin --occurrence 0'"
        ),
        (
            ["events", "--task", "nosuch", "--from", "2026-06-07", "--to", "2026-06-08"],
            "Error: could not list the events of 'nosuch': no task 'nosuch'"
        ),
        (
            ["outcome", "delete", "--task", "checkin", "--occurrence", "99999"],
            "Error: could not delete the outcome of 'checkin' occurrence 99999: task 'checkin' has no outcome for occurrence 99999"
        ),
        (
            ["task", "add", "x", "--element", "start=2026-06-07,end=2026-06-01,every=1d"],
            "Error: could not add task 'x': schedule element end"
        ),
        (["task", "update", "nosuch", "--title", "X"], "Error: could not update task 'nosuch': no task 'nosuch'"),
        (["task", "delete", "nosuch"], "Error: could not delete task 'nosuch': no task 'nosuch'"),
        (["onboard", "--consent-by", "Ann"], "Error: could not record onboarding: onboarding is already done"),
    ]

    @Test(arguments: refusals)
    func refusedValuesExit1(arguments: [String], message: String) throws {
        let store = try Store.onboarded()
        _ = try store.ok(["checkin", "--pain", "3", "--sleep", "7"])
        let before = try store.snapshot()
        let result = try store.run(arguments)
        #expect(result.status == 1, "\(arguments)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(try store.snapshot() == before)
    }

    @Test func missingStoreExit1WithHint() throws {
        let store = try Store()
        let result = try store.run(["tasks"])
        #expect(result.status == 1)
        #expect(
            result.stderr == """
                Error: no care store at \(store.directory.storePath) (from ROMDEV_STORE)
                Hint: run 'romdev init' to create it, or choose another with --store or ROMDEV_STORE

                """)
        #expect(!FileManager.default.fileExists(atPath: store.directory.storePath))
    }

    @Test func storeOptionWinsOverTheEnvironment() throws {
        let store = try Store()
        let other = store.directory.path + "/other/care.sqlite"
        #expect(try store.ok(["init", "--store", other]).hasPrefix("Created the care plan in \(other)"))
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(!FileManager.default.fileExists(atPath: store.directory.storePath))
    }

    @Test func helpForEveryCommandThreeWays() throws {
        for command in Romdev.commands {
            let paths =
                command.subcommands.isEmpty ? [[command.name]] : command.subcommands.map { [command.name, $0.name] }
            for path in paths {
                let expected = try Romdev.tool.helpText(for: path)
                for arguments in [path + ["--help"], ["help"] + path, path + ["-h"]] {
                    let result = try RomdevProcess.run(arguments)
                    #expect(result.status == 0)
                    #expect(result.stdout == expected, "\(arguments)")
                }
            }
        }
    }
}
