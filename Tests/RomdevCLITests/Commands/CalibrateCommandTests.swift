import Foundation
import Fusion
import Testing
@testable import RomdevCLI

/// `romdev calibrate` in process on the simulated `calibration` scenario, faster than real time,
/// and the commands that read its file.
struct CalibrateCommandTests {
    private var defaultPath: (InProcessRomdev) -> String { { $0.directory.path + "/calibration.json" } }

    @Test func walksThroughTheStepsAndSavesAVersionedFileNextToTheStore() throws {
        let romdev = try InProcessRomdev()
        let output = try romdev.run(["calibrate", "--simulate", "--seed", "2"])
        let prompts = output.split(separator: "\n").filter { $0.first?.isNumber == true }.map { $0.prefix(2) }
        #expect(prompts == ["1.", "2.", "2.", "2.", "2.", "2.", "3.", "4."])
        #expect(output.hasSuffix("Saved to \(defaultPath(romdev)).\n"))
        let data = try #require(FileManager.default.contents(atPath: defaultPath(romdev)))
        let calibration = try Calibration(json: data)
        #expect(calibration.version == Calibration.currentVersion)
        #expect(calibration.mounting != nil)
    }

    @Test func refusesWhenTheSensorMovesAndKeepsTheOldFile() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["calibrate", "--simulate"])
        let before = try #require(FileManager.default.contents(atPath: defaultPath(romdev)))
        let failure = try #require(romdev.failure(["calibrate", "--simulate=knee-extension"]) as? CommandFailure)
        #expect(failure.what == "calibration refused")
        #expect(failure.why?.hasPrefix("the device moved") == true)
        #expect(FileManager.default.contents(atPath: defaultPath(romdev)) == before)
    }

    @Test func writesToAnExplicitPath() throws {
        let romdev = try InProcessRomdev()
        let path = romdev.directory.path + "/elsewhere/cal.json"
        try romdev.run(["calibrate", "--simulate", "--calibration", path, "--seconds", "2"])
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: defaultPath(romdev)))
    }

    @Test func replayAndMeasureUseTheDefaultCalibrationAndSaySo() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["calibrate", "--simulate"])
        let measured = try romdev.run(["measure", "--simulate"])
        #expect(measured.contains("Calibration: \(defaultPath(romdev)) (default)"))
        let recording = romdev.directory.path + "/extension.csv"
        try ReplayCommandTests.extensionCSV().write(toFile: recording, atomically: true, encoding: .utf8)
        let replayed = try romdev.run(["replay", recording, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(replayed.utf8)) as? [String: Any])
        #expect(json["calibration"] as? String == defaultPath(romdev))
    }

    @Test func measuringTheCalibratedSimulatedSensorGivesTheTrueRange() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["calibrate", "--simulate", "--seed", "3"])
        let output = try romdev.run(["measure", "--simulate", "--seed", "3", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        // The knee-extension scenario: from 5° to 70° and back. Angles count from the strapped pose
        // of the calibration, which the scenario holds 3° from vertical: the start reads 5 − 3.
        let range = try #require(json["range"] as? Double), start = try #require(json["start"] as? Double)
        #expect(abs(range - 65) < 1)
        #expect(abs(start - 2) < 1)
        #expect((json["flags"] as? [String])?.isEmpty == true)
    }

    @Test func replayRefusesAForeignCalibrationFile() throws {
        let romdev = try InProcessRomdev()
        let recording = romdev.directory.path + "/extension.csv"
        try ReplayCommandTests.extensionCSV().write(toFile: recording, atomically: true, encoding: .utf8)
        let foreign = romdev.directory.path + "/foreign.json"
        try "[1, 2, 3]".write(toFile: foreign, atomically: true, encoding: .utf8)
        let failure = try #require(romdev.failure(["replay", recording, "--calibration", foreign]) as? CommandFailure)
        #expect(failure.why == "it is not a romdev calibration file")
    }

    @Test func doctorReportsTheCalibrationsAgeOrItsAbsence() throws {
        let romdev = try InProcessRomdev()
        let missing = CalibrationStatus(
            file: try CalibrationFile(explicitPath: nil, store: StoreOptions(path: nil), in: romdev.context), now: Date())
        #expect(missing.status == .missing)
        try romdev.run(["calibrate", "--simulate"])
        let written = CalibrationStatus(
            file: try CalibrationFile(explicitPath: nil, store: StoreOptions(path: nil), in: romdev.context),
            now: Date().addingTimeInterval(3 * 86_400))
        #expect(written.status == .valid)
        #expect(written.detail.hasPrefix("valid, 3 days old"))
        try "{\"version\": 7}".write(toFile: defaultPath(romdev), atomically: true, encoding: .utf8)
        let newer = CalibrationStatus(
            file: try CalibrationFile(explicitPath: nil, store: StoreOptions(path: nil), in: romdev.context), now: Date())
        #expect(newer.status == .invalid)
        #expect(newer.detail.contains("format version 7"))
    }

    @Test func aBadSecondsValueIsAUsageError() {
        #expect(throws: UsageError.self) { try Romdev.tool.parse(["calibrate", "--seconds", "0"]) }
    }
}
