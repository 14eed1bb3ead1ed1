import Foundation
import Sensor
import TestSupport

@testable import RomdevCLI

/// Runs romdev command lines in this process against a store in a temporary directory, with a
/// fixed clock and time zone, capturing standard output.
final class InProcessRomdev {
    let directory: TemporaryDirectory
    var now: Date
    let timeZone: TimeZone
    private(set) var output = ""

    /// 2026-06-07 09:30 in Paris (07:30 UTC), a Sunday in summer time.
    static let sunday0930 = Date(timeIntervalSince1970: 1_780_817_400)

    init(now: Date = InProcessRomdev.sunday0930, timeZone: String = "Europe/Paris") throws {
        directory = try TemporaryDirectory()
        self.now = now
        self.timeZone = TimeZone(identifier: timeZone)!
    }

    /// Where a daemon's control socket would be: a fake daemon may listen there.
    var runtimeDirectory: String { directory.path + "/run" }

    /// Simulated sensors run on a fresh manual clock per command: faster than real time.
    var context: CommandContext {
        CommandContext(
            environment: [
                "ROMDEV_STORE": directory.storePath, "HOME": directory.path, "ROMDEV_RUNTIME_DIR": runtimeDirectory,
            ],
            now: { [now] in now }, defaultTimeZone: timeZone,
            output: TextOutput { [weak self] in self?.output += $0 }, sensorClock: ManualClock())
    }

    /// Parses and runs a command line; returns what it printed.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        output = ""
        guard case .run(let action) = try Romdev.tool.parse(arguments) else {
            throw UsageError("not a command to run: \(arguments)")
        }
        try action.run(in: context)
        return output
    }

    /// The error a command line fails with, or nil when it succeeds.
    func failure(_ arguments: [String]) -> (any Error)? {
        do {
            try run(arguments)
            return nil
        } catch {
            return error
        }
    }

    /// Seeds the plan from 2026-06-07 in Paris and completes onboarding.
    func initialiseAndOnboard() throws {
        try run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris"])
        try run(["onboard", "--consent-by", "Ann Example"])
    }

    /// Everything a command could change, as text: the tasks and every outcome.
    func snapshot() throws -> String {
        try run(["tasks", "--json"]) + run(["export", "--format", "json"])
    }
}
