import FusionAccuracy
import Sensor
import Testing

@testable import Fusion

/// The calibration's knee-axis step on simulated knee swings: both boards through the register
/// simulator and the driver with datasheet errors, each calibrated by its own simulated face
/// procedure first.
struct HingeCalibrationTests {
    /// Board → segment rotations far from the segments' axes, so that no axis is found along a
    /// board axis by luck.
    static let mountings: [(shank: Rotation, thigh: Rotation)] = [
        (.identity, .identity),
        (
            Rotation(rollDegrees: 10, pitchDegrees: -8, yawDegrees: 20),
            Rotation(rollDegrees: -15, pitchDegrees: 12, yawDegrees: 95)
        ),
        (
            Rotation(rollDegrees: 30, pitchDegrees: 5, yawDegrees: -40),
            Rotation(rollDegrees: 180, pitchDegrees: -10, yawDegrees: 30)
        ),
    ]

    /// The shank board's calibration (faces, strapped on with `mounting`, one knee swing) and the
    /// thigh board's (faces only), from the simulated procedure; the thigh's board is the one
    /// `thighSeed` draws.
    static func calibrations(seed: UInt64, thighSeed: UInt64, mounting: Rotation) throws -> Calibration {
        let shank = SimulationScenario.calibration(seed: seed, mounting: mounting)
        let thigh = SimulationScenario(
            motion: MotionModel(movement: .calibration(.guided(seed: thighSeed))), errors: .datasheet(seed: thighSeed),
            seed: thighSeed, address: MPU6050.alternateAddress)
        let seconds = max(shank.motion.durationSeconds, thigh.motion.durationSeconds)
        let recording = try Recording.simulatedLeg(shank: shank, thigh: thigh, seconds: seconds)
        var shankProcedure = GuidedCalibration()
        for sample in recording.samples where shankProcedure.step != .finished { try shankProcedure.update(sample) }
        var parameters = GuidedCalibration.Parameters()
        parameters.endsAfterFaces = true
        var thighProcedure = GuidedCalibration(parameters: parameters)
        for sample in try #require(recording.thighSamples) where thighProcedure.step != .finished {
            try thighProcedure.update(sample)
        }
        var calibration = try #require(shankProcedure.calibration)
        calibration.thigh = ThighCalibration(sensor: try #require(thighProcedure.calibration).sensor)
        return calibration
    }

    /// The swings of `scenario`'s leg, both boards, through the step.
    static func hingeStep(
        _ calibration: Calibration, seed: UInt64, thighSeed: UInt64, mountings: (shank: Rotation, thigh: Rotation),
        thighDegrees: Double = 6
    ) throws -> (HingeCalibration, CalibrationError?) {
        let shank = SimulationScenario.kneeSwings(seed: seed, mounting: mountings.shank, thighDegrees: thighDegrees)
        let recording = try Recording.simulatedLeg(
            shank: shank, thigh: shank.thighBoard(mounting: mountings.thigh, seed: thighSeed),
            seconds: shank.motion.durationSeconds)
        var step = try HingeCalibration(calibration: calibration)
        let thigh = try #require(recording.thighSamples)
        do throws(CalibrationError) {
            for (shankSample, thighSample) in zip(recording.samples, thigh) where step.step != .finished {
                try step.update(shankSample, thigh: thighSample)
            }
        } catch {
            return (step, error)
        }
        return (step, nil)
    }

    /// Measured on these three: thigh 0.22°, 0.40°, 0.29° and shank 0.30°, 0.68°, 0.23° from the
    /// true axes with both boards calibrated; without the thigh board's own calibration (only the
    /// bias of the seated rest removed) the thigh's is 0.68°, 1.10°, 0.56°.
    @Test(arguments: 0..<3)
    func identifiesTheMountingAxesFromSimulatedSwings(index: Int) throws {
        let mountings = Self.mountings[index]
        let seed = UInt64(index + 1), thighSeed = UInt64(index + 101)
        let calibration = try Self.calibrations(seed: seed, thighSeed: thighSeed, mounting: mountings.shank)
        let down = SIMD3<Double>(0, -1, 0)
        let thighTruth = Self.vector(mountings.thigh.transposed * down)
        let shankTruth = Self.vector(mountings.shank.transposed * down)

        let (step, refusal) = try Self.hingeStep(calibration, seed: seed, thighSeed: thighSeed, mountings: mountings)
        #expect(refusal == nil)
        let axes = try #require(step.calibration?.thigh?.hingeAxes)
        // Oriented by the shank's mounting: extension positive, as the truth.
        #expect(axes.thigh.angle(to: thighTruth) * 180 / .pi < 1)
        #expect(axes.shank.angle(to: shankTruth) * 180 / .pi < 1)
        #expect(step.calibration?.thigh?.sensor == calibration.thigh?.sensor)
        #expect(step.calibration?.sensor == calibration.sensor)
        #expect(step.swings == 4)

        var uncorrected = calibration
        uncorrected.thigh = nil
        let (rawStep, rawRefusal) = try Self.hingeStep(
            uncorrected, seed: seed, thighSeed: thighSeed, mountings: mountings)
        #expect(rawRefusal == nil)
        let rawAxes = try #require(rawStep.calibration?.thigh?.hingeAxes)
        #expect(rawAxes.thigh.angle(to: thighTruth) * 180 / .pi < 1.5)
        #expect(rawStep.calibration?.thigh?.sensor == nil)
    }

    static func vector(_ v: SIMD3<Double>) -> Vector3 { Vector3(v.x, v.y, v.z) }

    @Test
    func aStillThighIsRefused() throws {
        let mountings = Self.mountings[1]
        let calibration = try Self.calibrations(seed: 2, thighSeed: 102, mounting: mountings.shank)
        let (step, refusal) = try Self.hingeStep(
            calibration, seed: 2, thighSeed: 102, mountings: mountings, thighDegrees: 0)
        guard case .thighTooStill = refusal else {
            Issue.record("refused with \(String(describing: refusal))")
            return
        }
        #expect(step.calibration == nil)
    }
}

extension HingeCalibrationTests {
    @Test
    func twoSwingsAreTooFew() throws {
        let mountings = Self.mountings[0]
        let calibration = try Self.calibrations(seed: 3, thighSeed: 103, mounting: mountings.shank)
        var shank = SimulationScenario.kneeSwings(seed: 3)
        guard case .kneeSwings(var swings) = shank.motion.movement else { return }
        swings.swings = 3
        shank.motion.movement = .kneeSwings(swings)
        let recording = try Recording.simulatedLeg(
            shank: shank, thigh: shank.thighBoard(seed: 103), seconds: shank.motion.durationSeconds)
        var step = try HingeCalibration(calibration: calibration)
        #expect(throws: CalibrationError.tooFewSwings(counted: 2, needed: 3)) {
            for (shankSample, thighSample) in zip(recording.samples, recording.thighSamples ?? []) {
                try step.update(shankSample, thigh: thighSample)
            }
        }
    }

    @Test
    func needsTheShankBoardsMounting() {
        #expect(throws: CalibrationError.needsShankMounting) { try HingeCalibration(calibration: .identity) }
    }

    /// Half swings of at least the least excursion, two to a swing; smaller wobbles do not count.
    @Test
    func countsSwingsInTheKneeAngle() {
        let axes = HingeAxes(thigh: .unitY, shank: .unitY)
        func rates(_ degreesPerSecond: [Double]) -> [(thigh: Vector3, shank: Vector3)] {
            degreesPerSecond.flatMap { rate in
                [(thigh: Vector3, shank: Vector3)](repeating: (.zero, Vector3(0, rate, 0)), count: 100)
            }
        }
        // Each entry: one second at that rate (100 samples of 10 ms).
        let threeSwings = rates([40, -60, 60, -60, 60, -60, 30])
        #expect(HingeCalibration.swings(in: threeSwings, axes: axes, interval: 0.01, least: 15) == 3)
        let wobbles = rates([10, -10, 10, -10, 10, -10])
        #expect(HingeCalibration.swings(in: wobbles, axes: axes, interval: 0.01, least: 15) == 0)
    }
}
