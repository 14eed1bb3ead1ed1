import Foundation
import Glibc
import Testing

@testable import RomdevCLI

/// Input that used to be accepted silently, crash, or reach the terminal raw.
@Suite struct InputHardeningTests {
    private func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try Romdev.tool.parse(arguments)
            return nil
        } catch {
            return error as? UsageError
        }
    }

    @Test(arguments: [
        (["today", "--date", "0000-01-01"], "before 1582-10-15"),
        (["today", "--date", "1582-10-10"], "before 1582-10-15"),
        (["checkin", "--pain", "0x5", "--sleep", "7"], "'0x5' is invalid"),
        (["checkin", "--pain", "5", "--sleep", "0x1.8p2"], "'0x1.8p2' is invalid"),
        (["checkin", "--pain", "5", "--sleep", "7e0"], "'7e0' is invalid"),
        (["checkin", "--pain", "inf", "--sleep", "7"], "'inf' is invalid"),
        // 26 digits read as 1e+26 and failed as "got 1e+26" with exit 1.
        (
            ["checkin", "--pain", "99999999999999999999999999", "--sleep", "7"],
            "'99999999999999999999999999' is invalid"
        ),
        (["checkin", "--pain", "5", "--sleep", "6.5000000000000001"], "'6.5000000000000001' is invalid"),
        (["record", "--seconds", "0x10", "--output", "x.csv"], "'0x10' is invalid"),
        (["record", "--seconds", "1e-9", "--output", "x.csv"], "'1e-9' is invalid"),
        (["record", "--seconds", "0.01", "--output", "x.csv"], "'0.01' is invalid"),
        (["today", "--store", ""], "the path is empty"),
        (["today", "--store", "."], "names a directory"),
        (["today", "--store", "./"], "names a directory"),
        (["today", "--store", "a/"], "names a directory"),
        (["today", "--store", "~"], "'~' is not expanded"),
        (["init", "--tz", "Factory"], "unknown time zone"),
        (["export", "--format", "csv", "--output", ""], "the path is empty"),
        (["export", "--to", ""], "'' is invalid"),
        (["replay", "r.csv", "--trace", "out/"], "names a directory"),
        (["calibrate", "--simulate", "--calibration", ".."], "names a directory"),
        (["daemon", "--check-config", "--config", "/"], "names a directory"),
        (["daemon", "--simulate", "--press-at", "99999999999999999999s"], "at most 604800s"),
        (["task", "delete", String(repeating: "a", count: 65)], "is invalid"),
    ])
    func refusedAsUsageErrors(arguments: [String], message: String) throws {
        let error = try #require(usageError(arguments), "\(arguments) was accepted")
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test(arguments: [
        ["checkin", "--pain", "5", "--sleep", "7.5"], ["checkin", "--pain", "+5", "--sleep", ".5"],
        ["today", "--date", "1582-10-15"], ["record", "--seconds", "0.1", "--output", "b"],
        ["export", "--format", "csv", "--output", "-"], ["today", "--store", "b"],
    ])
    func plainValuesStillParse(arguments: [String]) {
        #expect(usageError(arguments) == nil)
    }

    /// An argument of 262 KB was echoed whole; every echo is cut to a readable length.
    @Test(arguments: [
        ["today", "X"], ["today", "--X"], ["checkin", "--pain", "X", "--sleep", "7"],
        ["task", "add", "t", "--element", "start=2026-06-07,every=X"], ["today", "--date", "X"],
    ])
    func longInputIsCutInMessages(template: [String]) throws {
        let long = String(repeating: "7", count: 262_144)
        let arguments = template.map { $0.replacingOccurrences(of: "X", with: long) }
        let error = try #require(usageError(arguments))
        #expect(error.report.count < 1_000, "\(error.report.prefix(300))")
        #expect(error.message.contains("(262144 characters)") || error.message.contains("(262146 characters)"))
    }

    @Test func exportToStandardOutputWithDash() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let output = try romdev.run(["export", "--format", "json", "--output", "-"])
        #expect(output.hasPrefix("{"))
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    /// A consent name and a task title with escape sequences reached the terminal raw.
    @Test func storedTextIsEscapedInTextOutput() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris"])
        try romdev.run(["onboard", "--consent-by", "Eve\u{1B}]0;owned\u{07}\u{1B}[2J"])
        try romdev.run(["task", "add", "t", "--title", "red\u{1B}[31m\r", "--element", "start=2026-06-07,every=1d"])
        for arguments in [["outcomes"], ["tasks"], ["today"]] {
            let output = try romdev.run(arguments)
            #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\r" }, "\(arguments)")
        }
        #expect(try romdev.run(["outcomes"]).contains("Eve\\u{1B}]0;owned\\u{7}\\u{1B}[2J"))
        #expect(try romdev.run(["tasks"]).contains("red\\u{1B}[31m\\u{D}"))
        // Data formats keep the stored text exactly: JSON escapes it, CSV quotes it.
        #expect(try romdev.run(["export", "--format", "json"]).contains("Eve\\u001b]0;owned\\u0007\\u001b[2J"))
        #expect(try romdev.run(["export", "--format", "csv"]).contains("Eve\u{1B}]0;owned\u{07}\u{1B}[2J"))
    }

    /// A newline in a consent name or a task title printed lines of its own, which read as other
    /// outcomes or tasks; a tab shifted the columns.
    @Test func storedTextStaysOnItsLine() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris"])
        try romdev.run(["onboard", "--consent-by", "Ann\nonboarding #1  2026-06-08T00:00\tforged"])
        try romdev.run(["task", "add", "t", "--title", "walk\nt2  forged", "--element", "start=2026-06-07,every=1d"])
        let outcomes = try romdev.run(["outcomes"])
        #expect(outcomes.split(separator: "\n").count == 1)
        #expect(outcomes.contains("Ann\\u{A}onboarding #1  2026-06-08T00:00\\u{9}forged"))
        #expect(try romdev.run(["tasks"]).contains("walk\\u{A}t2  forged"))
        #expect(try romdev.run(["today"]).contains("walk\\u{A}t2  forged"))
        // CSV keeps the stored text exactly, quoted.
        #expect(
            try romdev.run(["export", "--format", "csv"]).contains("\"Ann\nonboarding #1  2026-06-08T00:00\tforged\""))
    }

    /// Occurrence 12418 printed as #1241, another real event.
    @Test func occurrenceNumbersAreNeverCut() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["task", "add", "hourly", "--element", "start=2025-01-01,every=1h,duration=1m"])
        let output = try romdev.run(["today"])
        let numbers = output.split(separator: "\n").filter { $0.contains("#") && $0.contains("not done") }
            .compactMap { $0.split(separator: " ").first(where: { $0.hasPrefix("#") }) }
        #expect(numbers.count >= 24, "\(output)")
        #expect(numbers.filter { $0.count == 6 }.count >= 24, "\(numbers)")
    }

    @Test func doctorSaysWhyACalibrationCannotBeUsed() throws {
        let romdev = try InProcessRomdev()
        let failure = try #require(
            romdev.failure(["doctor", "--simulate", "--calibration", "/nonexistent.json"]) as? CommandFailure)
        #expect(failure.why == "no such file")
        #expect(failure.description == "the calibration at /nonexistent.json cannot be used: no such file")
    }

    @Test func columnsArePaddedButNeverCut() {
        #expect("#7".padded(toWidth: 5) == "#7   ")
        #expect("#12418".padded(toWidth: 5) == "#12418")
    }
}
