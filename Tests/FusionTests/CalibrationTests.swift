import Foundation
import Testing
@testable import Fusion
import Sensor

struct CalibrationTests {
    private func still(acceleration: Vector3, rate: Vector3 = .zero, count: Int = 200, seed: UInt64 = 1) -> [InertialSample] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { i in
            InertialSample(time: Double(i) * 0.01, acceleration: acceleration + rng.gaussianVector(sigma: 0.003),
                           rotationRate: rate + rng.gaussianVector(sigma: 0.05))
        }
    }

    @Test func gyroBiasIsTheStillMean() throws {
        let bias = try Calibration.gyroBias(still: still(acceleration: .unitZ, rate: Vector3(-12, 3.5, 18)))
        #expect((bias - Vector3(-12, 3.5, 18)).length < 0.02)
    }

    @Test func gyroBiasRefusesAWindowWithMotion() {
        var samples = still(acceleration: .unitZ)
        samples[120].rotationRate = Vector3(0, 25, 0)
        #expect {
            try Calibration.gyroBias(still: samples)
        } throws: { error in
            guard case CalibrationError.moved = error else { return false }
            return true
        }
    }

    @Test func gyroBiasRefusesTooFewSamples() {
        #expect(throws: CalibrationError.tooFewSamples(needed: 10, got: 3)) {
            try Calibration.gyroBias(still: still(acceleration: .unitZ, count: 3))
        }
    }

    static let faces: [Vector3] = [.unitX, -.unitX, .unitY, -.unitY, .unitZ, -.unitZ]

    @Test(arguments: [(Vector3(0.05, -0.03, 0.08), Vector3(1.02, 0.97, 1.01)), (Vector3.zero, Vector3(1, 1, 1))])
    func accelerometerRecoversOffsetAndScaleFromSixFaces(offset: Vector3, scale: Vector3) throws {
        var rng = SplitMix64(seed: 9)
        // Each face a little off square, as on a real table, with the mean of 200 noisy samples.
        let poses = Self.faces.map { face -> Vector3 in
            let tilted = face.rotated(by: rng.gaussianVector(sigma: 0.03))
            return tilted.scaled(by: scale) + offset + rng.gaussianVector(sigma: 0.003 / 14)
        }
        let fit = try Calibration.accelerometer(poses: poses)
        #expect((fit.offset - offset).maximumMagnitude < 1e-3)
        #expect((fit.scale - scale).maximumMagnitude < 1e-3)
    }

    @Test func accelerometerRefusesPosesThatDoNotTurnEveryAxis() {
        let poses = [Vector3.unitX, .unitY, .unitZ, Vector3(0.7, 0.7, 0), Vector3(0, 0.7, 0.7), Vector3(0.7, 0, 0.7)]
        #expect(throws: CalibrationError.posesNotSpread) { try Calibration.accelerometer(poses: poses) }
        #expect(throws: CalibrationError.tooFewPoses(needed: 6, got: 2)) {
            try Calibration.accelerometer(poses: Array(Self.faces.prefix(2)))
        }
    }

    @Test func mountingComesFromTheStartPoseAndASwing() throws {
        var imu = SyntheticIMU(motion: .kneeExtension(peak: 60), mounting: Vector3(1.1, -0.4, 2.0),
                               gyroNoise: 0.05, accelerationNoise: 0.003)
        imu.sampleRate = 100
        let samples = imu.samples()
        let mounting = try Calibration.mounting(startPose: samples.prefix(200), swing: samples.dropFirst(200))
        #expect(mounting.shinAxis.angle(to: imu.trueMounting.shinAxis) * 180 / Double.pi < 0.5)
        #expect(mounting.hingeAxis.angle(to: imu.trueMounting.hingeAxis) * 180 / Double.pi < 1)
    }

    @Test func mountingRefusesASwingThatBarelyTurns() {
        let imu = SyntheticIMU(motion: .kneeExtension(peak: 8), mounting: Vector3(0.2, 0.2, 0.2))
        let samples = imu.samples()
        #expect {
            try Calibration.mounting(startPose: samples.prefix(200), swing: samples.dropFirst(200))
        } throws: { error in
            guard case CalibrationError.tooLittleRotation = error else { return false }
            return true
        }
    }

    @Test func correctionAppliesOffsetScaleAndBias() {
        let calibration = Calibration(gyroBias: Vector3(1, 2, 3), accelerometerOffset: Vector3(0.1, 0, -0.1),
                                      accelerometerScale: Vector3(2, 1, 0.5))
        let corrected = calibration.corrected(InertialSample(time: 4, acceleration: Vector3(0.5, 1, 0.4), rotationRate: Vector3(1, 1, 1)))
        #expect(corrected == InertialSample(time: 4, acceleration: Vector3(0.2, 1, 1), rotationRate: Vector3(0, -1, -2)))
    }

    @Test func roundTripsThroughJSONWithItsVersion() throws {
        let calibration = Calibration(gyroBias: Vector3(1, 2, 3), accelerometerOffset: Vector3(0.01, 0, -0.02),
                                      accelerometerScale: Vector3(1.01, 0.99, 1), mounting: Mounting(shinAxis: .unitY, hingeAxis: .unitX))
        let data = try JSONEncoder().encode(calibration)
        let decoded = try JSONDecoder().decode(Calibration.self, from: data)
        #expect(decoded == calibration)
        #expect(decoded.version == Calibration.currentVersion)
        #expect(decoded.problems.isEmpty)
    }

    @Test func fileBytesRoundTripAndForeignFilesAreRefused() throws {
        let calibration = Calibration(gyroBias: Vector3(1, 2, 3), gyroScale: Vector3(1.01, 1, 0.99),
                                      mounting: Mounting(shinAxis: .unitZ, hingeAxis: .unitY))
        #expect(try Calibration(json: calibration.json()) == calibration)
        #expect(throws: CalibrationFileError.notACalibration) { try Calibration(json: Data("[1, 2]".utf8)) }
        #expect(throws: CalibrationFileError.unsupportedVersion(2)) { try Calibration(json: Data(#"{"version": 2}"#.utf8)) }
        #expect(throws: CalibrationFileError.damaged) { try Calibration(json: Data(#"{"version": 1, "gyroBias": 3}"#.utf8)) }
        var skewed = calibration
        skewed.mounting?.hingeAxis = Vector3(0, 0.6, 0.8)
        #expect(throws: CalibrationFileError.self) { try Calibration(json: skewed.json()) }
    }

    @Test func reportsProblemsOfAForeignFile() {
        var calibration = Calibration(accelerometerScale: Vector3(1, 3, 1))
        calibration.version = 99
        #expect(calibration.problems.count == 2)
    }
}

struct GyroScaleCalibrationTests {
    /// Still, a 90° turn about one sensor axis, still, back, still: with the gyro reading `scale` high.
    private func turns(scale: Vector3) -> [[InertialSample]] {
        [Vector3(0, 0, 1.2), Vector3.zero, Vector3(1.0, 0.3, 0)].enumerated().map { index, mounting in
            var imu = SyntheticIMU(motion: .kneeExtension(peak: 90, still: 3, rise: 1.5, hold: 3, fall: 1.5),
                                   mounting: mounting, leverArm: 0, gyroNoise: 0.05, accelerationNoise: 0.003,
                                   seed: UInt64(index + 1))
            imu.sampleRate = 200
            return imu.samples().map {
                InertialSample(time: $0.time, acceleration: $0.acceleration, rotationRate: $0.rotationRate.scaled(by: scale))
            }
        }
    }

    @Test func recoversTheSensitivityOfEachAxis() throws {
        let truth = Vector3(1.025, 0.98, 1.012)
        let scale = try Calibration.gyroScale(recordings: turns(scale: truth))
        #expect((scale - truth).maximumMagnitude < 0.002)
    }

    @Test func refusesTurnsAboutOneAxisOnly() {
        let one = Array(turns(scale: Vector3(1, 1, 1)).prefix(1))
        #expect(throws: CalibrationError.posesNotSpread) { try Calibration.gyroScale(recordings: one) }
    }
}

struct FaceCalibrationTests {
    /// Six faces held 3 s each, tipped 90° over an edge in 1.5 s between them: about x, x, y, z, z.
    static func faces(bias: Vector3, gyroScale: Vector3, offset: Vector3, scale: Vector3, seed: UInt64 = 4) -> [InertialSample] {
        var rng = SplitMix64(seed: seed)
        var samples: [InertialSample] = []
        var up = Vector3.unitZ, time = 0.0
        let rate = 200.0
        func emit(up: Vector3, turning: Vector3) {
            samples.append(InertialSample(
                time: time,
                acceleration: up.scaled(by: scale) + offset + rng.gaussianVector(sigma: 0.003),
                rotationRate: turning.scaled(by: gyroScale) + bias + rng.gaussianVector(sigma: 0.05)))
            time += 1 / rate
        }
        for axis in [Vector3.unitX, .unitX, .unitY, .unitZ, .unitZ] {
            for _ in 0..<Int(3 * rate) { emit(up: up, turning: .zero) }
            let start = up, steps = Int(1.5 * rate)
            for step in 0..<steps {
                // Half-cosine turn of 90°; rate in °/s about the board axis.
                let s = Double(step) / Double(steps)
                let angle = 45 * (1 - cos(Double.pi * s))
                let angularRate = 45 * Double.pi / 1.5 * sin(Double.pi * s)
                emit(up: start.rotated(by: axis * (-angle * Double.pi / 180)), turning: axis * angularRate)
            }
            up = start.rotated(by: axis * (-Double.pi / 2))
        }
        for _ in 0..<Int(3 * rate) { emit(up: up, turning: .zero) }
        return samples
    }

    @Test func oneRecordingOfTheSixFacesGivesTheWholeSensorCalibration() throws {
        let bias = Vector3(3, -12, 7), gyroScale = Vector3(1.02, 0.97, 1.015)
        let offset = Vector3(0.03, -0.04, 0.06), scale = Vector3(1.02, 0.98, 1.01)
        let calibration = try Calibration.fromFaces(Self.faces(bias: bias, gyroScale: gyroScale, offset: offset, scale: scale))
        #expect((calibration.gyroBias - bias).maximumMagnitude < 0.05)
        #expect((calibration.accelerometerOffset - offset).maximumMagnitude < 2e-3)
        #expect((calibration.accelerometerScale - scale).maximumMagnitude < 2e-3)
        #expect((calibration.gyroScale - gyroScale).maximumMagnitude < 3e-3)
        #expect(calibration.problems.isEmpty)
    }

    @Test func tooFewFacesAreRefused() {
        let samples = Self.faces(bias: .zero, gyroScale: Vector3(1, 1, 1), offset: .zero, scale: Vector3(1, 1, 1))
        #expect(throws: CalibrationError.tooFewPoses(needed: 6, got: 3)) {
            try Calibration.fromFaces(Array(samples.prefix(2400)))
        }
    }
}
