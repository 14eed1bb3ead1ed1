import Foundation
import Testing

@testable import RomdevCLI

/// An output file is replaced whole: naming one of the command's own inputs used to replace it,
/// the care store's outcomes or the recording lost, and exit 0.
@Suite struct OutputGuardTests {
    /// A store with the onboarding outcome, a recording, and what each file held before.
    private func setUp() throws -> (InProcessRomdev, recording: String, before: [String: Data]) {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let recording = romdev.directory.path + "/session.csv"
        try romdev.run(["record", "--simulate", "--seconds", "12", "--output", recording])
        var before: [String: Data] = [:]
        for path in [romdev.directory.storePath, recording] {
            before[path] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return (romdev, recording, before)
    }

    @Test(arguments: [
        (["export", "--format", "csv", "--output", "{store}"], "'--output' names the care store"),
        (["report", "--output", "{store}"], "'--output' names the care store"),
        (["report", "--output", "{store}-wal"], "'--output' names the care store's -wal file"),
        (["replay", "{recording}", "--trace", "{recording}"], "'--trace' names the recording"),
        (["replay", "{recording}", "--trace", "{link}"], "'--trace' names the recording"),
        (["replay", "{recording}", "--trace", "{store}"], "'--trace' names the care store"),
        (
            ["calibrate", "--replay", "{recording}", "--calibration", "{recording}"],
            "'--calibration' names the recording"
        ),
        (["calibrate", "--replay", "{recording}", "--calibration", "{store}"], "'--calibration' names the care store"),
    ])
    func anOutputNamingAnInputIsAUsageErrorAndReplacesNothing(arguments: [String], message: String) throws {
        let (romdev, recording, before) = try setUp()
        // Another name for the recording: a hard link replaced through it is the recording.
        let link = romdev.directory.path + "/sub/../other-name.csv"
        try FileManager.default.createDirectory(
            atPath: romdev.directory.path + "/sub", withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: recording, toPath: romdev.directory.path + "/other-name.csv")
        let line = arguments.map {
            $0.replacingOccurrences(of: "{store}", with: romdev.directory.storePath)
                .replacingOccurrences(of: "{recording}", with: recording).replacingOccurrences(of: "{link}", with: link)
        }
        let failure = try #require(romdev.failure(line) as? CommandFailure, "\(line) was accepted")
        #expect(failure.exitStatus == 64)
        #expect(failure.why?.contains(message) == true, "\(failure.why ?? "")")
        for (path, data) in before {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data, "\(path) changed")
        }
        #expect(try romdev.run(["outcomes"]).contains("onboarding"))
    }

    @Test func anotherFileIsWritten() throws {
        let (romdev, recording, _) = try setUp()
        let trace = romdev.directory.path + "/trace.csv"
        try romdev.run(["replay", recording, "--trace", trace])
        #expect(FileManager.default.fileExists(atPath: trace))
    }
}
