import Foundation
import Fusion
import FusionAccuracy
import Sensor
import Testing

@testable import RomdevCLI

/// `romdev calibrate --sensor thigh` and `--hinge` over two-sensor recordings of the simulated leg,
/// after the shank's calibration on the simulated sensor.
struct CalibrateThighCommandTests {
    /// The board the thigh's recordings read: seed 101's datasheet errors.
    static let thighSeed: UInt64 = 101
    static let thighMounting = Rotation(rollDegrees: -15, pitchDegrees: 12, yawDegrees: 95)

    /// The CSV of a recording with both sensors' columns.
    static func csv(_ recording: Recording) -> String {
        var lines = [Recording.header(thigh: true, truth: false)]
        for (index, shank) in recording.samples.enumerated() {
            let thigh = recording.thighSamples?[index] ?? shank
            let values = [
                shank.acceleration.x, shank.acceleration.y, shank.acceleration.z, shank.rotationRate.x,
                shank.rotationRate.y, shank.rotationRate.z, recording.temperatures[index], thigh.acceleration.x,
                thigh.acceleration.y, thigh.acceleration.z, thigh.rotationRate.x, thigh.rotationRate.y,
                thigh.rotationRate.z,
            ]
            lines.append(String(format: "%.4f", shank.time) + values.map { String(format: ",%.6f", $0) }.joined())
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The thigh's board going through the faces on the table, beside a still shank.
    static func thighFacesCSV() throws -> String {
        let thigh = SimulationScenario(
            motion: MotionModel(movement: .calibration(.guided(seed: thighSeed))), errors: .datasheet(seed: thighSeed),
            seed: thighSeed, address: MPU6050.alternateAddress)
        return csv(
            try Recording.simulatedLeg(
                shank: .still(seed: 1), thigh: thigh, seconds: thigh.motion.durationSeconds))
    }

    /// Free knee swings with both boards on: the shank's is seed 1's board, strapped as the
    /// simulated `calibration` scenario straps it.
    static func swingsCSV(thighDegrees: Double = 6) throws -> String {
        let shank = SimulationScenario.kneeSwings(seed: 1, thighDegrees: thighDegrees)
        return csv(
            try Recording.simulatedLeg(
                shank: shank, thigh: shank.thighBoard(mounting: thighMounting, seed: thighSeed),
                seconds: shank.motion.durationSeconds))
    }

    private func write(_ text: String, _ name: String, in romdev: InProcessRomdev) throws -> String {
        let path = romdev.directory.path + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func saved(_ romdev: InProcessRomdev) throws -> Calibration {
        try Calibration(
            json: try #require(FileManager.default.contents(atPath: romdev.directory.path + "/calibration.json")))
    }

    @Test func theThighsFacesAndThenTheKneesAxisAddToTheShanksFile() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["calibrate", "--simulate", "--seed", "1"])
        let shank = try saved(romdev)

        let faces = try write(Self.thighFacesCSV(), "thigh-faces.csv", in: romdev)
        let thighOutput = try romdev.run(["calibrate", "--sensor", "thigh", "--replay", faces])
        #expect(thighOutput.contains("Calibrating the thigh sensor from the recording"))
        #expect(thighOutput.contains("Run 'romdev calibrate --hinge' for the knee's axis."))
        let withThigh = try saved(romdev)
        #expect(withThigh.sensor == shank.sensor && withThigh.mounting == shank.mounting)
        let thighSensor = try #require(withThigh.thigh?.sensor)
        #expect(withThigh.thigh?.hingeAxes == nil)
        // The board's zero-rate offset, found to within the noise.
        let drawn = SensorErrorModel.datasheet(seed: Self.thighSeed).gyroOffsetDPS
        #expect((thighSensor.gyroBias - Vector3(drawn.x, drawn.y, drawn.z)).length < 0.5)

        let swings = try write(Self.swingsCSV(), "swings.csv", in: romdev)
        let hingeOutput = try romdev.run(["calibrate", "--hinge", "--replay", swings])
        let prompts = hingeOutput.split(separator: "\n").filter { $0.first?.isNumber == true || $0.hasPrefix("At ") }
        #expect(prompts.count == 3)
        #expect(hingeOutput.contains("Knee axis, thigh"))
        let hinged = try saved(romdev)
        #expect(hinged.sensor == shank.sensor && hinged.mounting == shank.mounting)
        #expect(hinged.thigh?.sensor == thighSensor)
        let axes = try #require(hinged.thigh?.hingeAxes)
        let down = SIMD3<Double>(0, -1, 0)
        let thighTruth = Self.thighMounting.transposed * down
        #expect(axes.thigh.angle(to: Vector3(thighTruth.x, thighTruth.y, thighTruth.z)) * 180 / .pi < 1)
        #expect(axes.shank.angle(to: -Vector3.unitY) * 180 / .pi < 1)

        // A new calibration of the shank's board keeps the thigh's correction, not the axes.
        try romdev.run(["calibrate", "--simulate", "--seed", "1"])
        let again = try saved(romdev)
        #expect(again.thigh == ThighCalibration(sensor: thighSensor))
    }

    /// On the (simulated) sensor the thigh's run takes the table steps only.
    @Test func theThighsRunOnTheSensorStopsAfterTheFaces() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["calibrate", "--simulate", "--seed", "1"])
        let shank = try saved(romdev)
        let output = try romdev.run(["calibrate", "--sensor", "thigh", "--simulate", "--seed", "5"])
        let prompts = output.split(separator: "\n").filter { $0.first?.isNumber == true }.map { $0.prefix(2) }
        #expect(prompts == ["1.", "2.", "2.", "2.", "2.", "2.", "2."])
        let withThigh = try saved(romdev)
        #expect(withThigh.sensor == shank.sensor && withThigh.mounting == shank.mounting)
        // The simulated thigh's board is its own part: its errors, not the shank's, are measured.
        let drawn = SimulationScenario.calibration(seed: 5).thighPart().errors.gyroOffsetDPS
        let shankDrawn = SensorErrorModel.datasheet(seed: 5).gyroOffsetDPS
        #expect(Vector3(drawn.x - shankDrawn.x, drawn.y - shankDrawn.y, drawn.z - shankDrawn.z).length > 1)
        let bias = try #require(withThigh.thigh?.sensor?.gyroBias)
        #expect((bias - Vector3(drawn.x, drawn.y, drawn.z)).length < 0.5)
    }

    @Test func aStillThighIsRefusedAndTheFileKept() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["calibrate", "--simulate", "--seed", "1"])
        let before = try saved(romdev)
        let swings = try write(Self.swingsCSV(thighDegrees: 0), "swings.csv", in: romdev)
        let failure = try #require(romdev.failure(["calibrate", "--hinge", "--replay", swings]) as? CommandFailure)
        #expect(failure.what == "calibration refused")
        #expect(failure.why?.contains("the thigh hardly moved") == true)
        #expect(try saved(romdev) == before)
    }

    @Test func theKneesAxisOnTheSimulatedSensorsUsesBoth() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["calibrate", "--simulate", "--seed", "1"])
        let before = try saved(romdev)
        // The simulated bus fits the thigh's board at 0x69 and plays the knee swings.
        try romdev.run(["calibrate", "--hinge", "--simulate", "--seed", "1"])
        let after = try saved(romdev)
        let axes = try #require(after.thigh?.hingeAxes)
        #expect(after.sensor == before.sensor && after.mounting == before.mounting)
        // Both boards lie alike on the simulated leg: the knee's axis is the same in both frames.
        #expect(axes.thigh.angle(to: axes.shank) * 180 / Double.pi < 3, "\(axes)")
    }

    @Test func theKneesAxisNeedsTheThighSensor() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["calibrate", "--simulate", "--seed", "1"])
        // A recording with the shank's columns only.
        let oneSensor = try write(ReplayCommandTests.extensionCSV(), "extension.csv", in: romdev)
        let replayed = try #require(
            romdev.failure(["calibrate", "--hinge", "--replay", oneSensor]) as? CommandFailure)
        #expect(replayed.why?.contains("needs the thigh sensor") == true)
        let thigh = try #require(
            romdev.failure(["calibrate", "--sensor", "thigh", "--replay", oneSensor]) as? CommandFailure)
        #expect(thigh.why == "its header has no thigh columns")
    }

    @Test func theThighsRunsNeedTheShanksCalibrationFirst() throws {
        let romdev = try InProcessRomdev()
        let failure = try #require(romdev.failure(["calibrate", "--hinge", "--simulate"]) as? CommandFailure)
        #expect(failure.what == "could not calibrate the knee's axis")
        #expect(failure.hint == "run 'romdev calibrate' first")
        #expect(!FileManager.default.fileExists(atPath: romdev.directory.path + "/calibration.json"))
    }

    @Test func hingeDoesNotCombineWithATableOption() throws {
        let romdev = try InProcessRomdev()
        #expect(romdev.failure(["calibrate", "--hinge", "--sensor", "thigh"]) is UsageError)
        #expect(romdev.failure(["calibrate", "--hinge", "--seconds", "5"]) is UsageError)
        #expect(romdev.failure(["calibrate", "--sensor", "knee"]) is UsageError)
    }
}
