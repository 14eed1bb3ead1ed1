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
        #expect(prompts == ["1.", "2.", "2.", "2.", "2.", "2.", "2.", "3.", "4."])
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
            file: try CalibrationFile(explicitPath: nil, store: StoreOptions(path: nil), in: romdev.context),
            now: Date())
        #expect(missing.status == .missing)
        try romdev.run(["calibrate", "--simulate"])
        let written = CalibrationStatus(
            file: try CalibrationFile(explicitPath: nil, store: StoreOptions(path: nil), in: romdev.context),
            now: Date().addingTimeInterval(3 * 86_400))
        #expect(written.status == .valid)
        #expect(written.detail.hasPrefix("valid, 3 days old"))
        try "{\"version\": 7}".write(toFile: defaultPath(romdev), atomically: true, encoding: .utf8)
        let newer = CalibrationStatus(
            file: try CalibrationFile(explicitPath: nil, store: StoreOptions(path: nil), in: romdev.context),
            now: Date())
        #expect(newer.status == .invalid)
        #expect(newer.detail.contains("format version 7"))
    }

    /// A recorded simulated calibration, replayed, gives what calibrating the simulated sensor live
    /// gives; a recorded measurement then replays with it to the true range.
    @Test func calibratesFromARecordingAsLiveAndTheWholeChainReplays() throws {
        let romdev = try InProcessRomdev()
        let directory = romdev.directory.path
        try romdev.run([
            "record", "--simulate=calibration", "--seed", "3", "--seconds", "70", "--output", directory + "/cal.csv",
        ])
        let output = try romdev.run([
            "calibrate", "--replay", directory + "/cal.csv", "--calibration", directory + "/replayed.json",
        ])
        let prompts = output.split(separator: "\n").filter { $0.hasPrefix("At ") }.map { $0.split(separator: " ")[3] }
        #expect(prompts == ["2.", "2.", "2.", "2.", "2.", "2.", "3.", "4.", "Done."])
        #expect(output.hasSuffix("Saved to \(directory)/replayed.json.\n"))
        try romdev.run(["calibrate", "--simulate", "--seed", "3", "--calibration", directory + "/live.json"])
        let replayed = try Calibration(
            json: try #require(FileManager.default.contents(atPath: directory + "/replayed.json")))
        let live = try Calibration(json: try #require(FileManager.default.contents(atPath: directory + "/live.json")))
        // The same samples, but the CSV rounds them (10 µg, 0.1 m°/s).
        #expect((replayed.gyroBias - live.gyroBias).maximumMagnitude < 0.005)
        #expect((replayed.accelerometerOffset - live.accelerometerOffset).maximumMagnitude < 1e-4)
        #expect((replayed.gyroMatrix - live.gyroMatrix).maximumMagnitude < 5e-4)
        #expect((replayed.accelerometerMatrix - live.accelerometerMatrix).maximumMagnitude < 5e-4)
        let replayedMounting = try #require(replayed.mounting), liveMounting = try #require(live.mounting)
        #expect(replayedMounting.shinAxis.angle(to: liveMounting.shinAxis) * 180 / .pi < 0.1)
        #expect(replayedMounting.hingeAxis.angle(to: liveMounting.hingeAxis) * 180 / .pi < 0.5)

        try romdev.run([
            "record", "--simulate=knee-extension", "--seed", "3", "--seconds", "14", "--output", directory + "/ext.csv",
        ])
        let result = try romdev.run([
            "replay", directory + "/ext.csv", "--calibration", directory + "/replayed.json", "--json",
        ])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.utf8)) as? [String: Any])
        let range = try #require(json["range"] as? Double), reference = try #require(json["reference_range"] as? Double)
        #expect(abs(range - reference) < 1)
        #expect(json["ended"] as? String == "returned")
    }

    /// A recorded knee arc replays under either protocol: the arc follows both steps, the extension
    /// ends at the first return.
    @Test func aRecordedArcReplaysUnderEitherProtocol() throws {
        let romdev = try InProcessRomdev()
        let directory = romdev.directory.path
        try romdev.run(["calibrate", "--simulate", "--seed", "3", "--calibration", directory + "/cal.json"])
        try romdev.run([
            "record", "--simulate=knee-arc", "--seed", "3", "--seconds", "30", "--output", directory + "/arc.csv",
        ])
        func replay(_ measurementProtocol: String) throws -> [String: Any] {
            let output = try romdev.run([
                "replay", directory + "/arc.csv", "--calibration", directory + "/cal.json", "--protocol",
                measurementProtocol, "--json",
            ])
            return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        }
        let arc = try replay("arc")
        #expect(arc["protocol"] as? String == "arc")
        #expect(arc["ended"] as? String == "returned")
        #expect((arc["flags"] as? [String])?.isEmpty == true)
        let range = try #require(arc["range"] as? Double), reference = try #require(arc["reference_range"] as? Double)
        #expect(abs(range - reference) < 1)
        // Inclination 5° → 75° → −30°, counted from the calibration's strapped pose, which the
        // scenario holds 3° from vertical: knee 90 − (75 − 3) = 18° to 90 − (−30 − 3) = 123°.
        let flexion = try #require(arc["knee_flexion"] as? Double), lag = try #require(arc["knee_extension"] as? Double)
        #expect(abs(flexion - 123) < 1.5, "knee_flexion \(flexion)")
        #expect(abs(lag - 18) < 1.5, "knee_extension \(lag)")
        let extensionOnly = try replay("extension")
        #expect(extensionOnly["protocol"] as? String == "extension")
        // Ended at the first return: the most flexed is the rest, 90 − (5 − 3).
        let restFlexion = try #require(extensionOnly["knee_flexion"] as? Double)
        #expect(abs(restFlexion - 88) < 1.5, "knee_flexion \(restFlexion)")
        #expect(try #require(extensionOnly["seconds"] as? Double) < (try #require(arc["seconds"] as? Double)) - 5)
    }

    @Test func aRecordingThatEndsEarlyNamesTheStepAndSavesNothing() throws {
        let romdev = try InProcessRomdev()
        let recording = romdev.directory.path + "/short.csv"
        try romdev.run(["record", "--simulate=calibration", "--seed", "2", "--seconds", "15", "--output", recording])
        let failure = try #require(romdev.failure(["calibrate", "--replay", recording]) as? CommandFailure)
        #expect(failure.what == "calibration incomplete")
        #expect(failure.why?.contains("during step 2, the faces (") == true)
        #expect(!FileManager.default.fileExists(atPath: defaultPath(romdev)))
    }

    /// A recorded calibration with 0.3 s lost in the middle of the tip from +x up to −y up: the
    /// procedure asks for that tip again, +x up and then −y up, rather than refuse; the recording,
    /// whose person went on to strap the sensor on, ends before the tip was made again.
    @Test func aTipThatLostSamplesIsAskedForAgain() throws {
        let romdev = try InProcessRomdev()
        let recording = romdev.directory.path + "/cal.csv"
        try romdev.run(["record", "--simulate=calibration", "--seed", "3", "--seconds", "70", "--output", recording])
        let prompts = try romdev.run([
            "calibrate", "--replay", recording, "--calibration", romdev.directory.path + "/c.json",
        ])
        // The tip that leaves +x up follows the prompt naming −y, and ends before the next prompt.
        func promptTime(_ text: String) throws -> Double {
            let line = try #require(prompts.split(separator: "\n").first { $0.contains(text) })
            return try #require(Double(line.split(separator: " ")[1]))
        }
        let from = try promptTime("its -y side is up"), to = try promptTime("its -x side is up")
        var lines = try String(contentsOfFile: recording, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let gyro = { (line: Substring) -> (time: Double, rate: Double)? in
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count >= 7 else { return nil }
            return (fields[0], (fields[4] * fields[4] + fields[5] * fields[5] + fields[6] * fields[6]).squareRoot())
        }
        let turning = lines.compactMap(gyro).filter { $0.time > from && $0.time < to && $0.rate > 30 }.map(\.time)
        let middle = try (#require(turning.first) + #require(turning.last)) / 2
        lines.removeAll { line in gyro(line).map { abs($0.time - middle) <= 0.15 } ?? false }
        try lines.joined(separator: "\n").write(toFile: recording, atomically: true, encoding: .utf8)

        let failure = try #require(romdev.failure(["calibrate", "--replay", recording]) as? CommandFailure)
        #expect(
            romdev.output.contains(
                "2. Samples were lost while it turned (the computer fell behind the sensor), so that tip must be made "
                    + "again: tip the sensor so that its +x side is up, and hold it still."))
        #expect(failure.what == "calibration incomplete")
        // Strapped on the shin, the board lies +z up, as the wiring guide straps it: not the face
        // asked for, which is still +x up, tipped from −z up where the lost tip began.
        #expect(failure.why?.contains("during step 2, the faces (lying +z up, waiting for +x up after -z)") == true)
        #expect(!FileManager.default.fileExists(atPath: defaultPath(romdev)))
    }

    @Test func aMalformedRecordingNamesItsLine() throws {
        let romdev = try InProcessRomdev()
        let recording = romdev.directory.path + "/bad.csv"
        let text = ReplayCommandTests.extensionCSV().replacingOccurrences(of: "\n0.02,", with: "\n0.02,x")
        try text.write(toFile: recording, atomically: true, encoding: .utf8)
        let failure = try #require(romdev.failure(["calibrate", "--replay", recording]) as? CommandFailure)
        #expect(failure.what == "\(recording) is not a valid recording")
        #expect(failure.why?.hasPrefix("line 4, column 2:") == true)
    }

    @Test func replayDoesNotCombineWithSimulate() {
        #expect(throws: UsageError.self) { try Romdev.tool.parse(["calibrate", "--replay", "x.csv", "--simulate"]) }
    }

    @Test func aBadSecondsValueIsAUsageError() {
        #expect(throws: UsageError.self) { try Romdev.tool.parse(["calibrate", "--seconds", "0"]) }
    }
}
