import Sensor
import Synchronization
import Testing

@testable import Fusion
@testable import Sampling

/// The guided calibration on the simulated `calibration` scenario, faster than real time.
@Suite struct CalibrationRunTests {
    let clock = ManualClock()

    /// The calibration's result and the steps it reported.
    private func calibrate(_ scenario: SimulationScenario) throws
        -> (result: Result<Calibration, CalibrationRun.Failure>, steps: [GuidedCalibration.Step])
    {
        let simulated = try SimulatedSensor(scenario, clock: clock)
        let steps = Mutex<[GuidedCalibration.Step]>([])
        let calibration = CalibrationRun(sensor: simulated.sensor, pacing: .sleeping(clock)) { step in
            steps.withLock { $0.append(step) }
        }
        let result = Result { () throws(CalibrationRun.Failure) in try calibration.run() }
        return (result, steps.withLock { $0 })
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func recoversTheSensorErrorsAndTheMounting(seed: UInt64) throws {
        let mounting = Rotation(axis: [0, 0, 1], angleDegrees: 90)
        let scenario = SimulationScenario.calibration(seed: seed, mounting: mounting, temperatureCelsius: 25)
        let (result, steps) = try calibrate(scenario)
        let calibration = try result.get()
        #expect(
            steps == [
                .holdStill, .nextFace(captured: 1), .nextFace(captured: 2), .nextFace(captured: 3),
                .nextFace(captured: 4), .nextFace(captured: 5), .nextFace(captured: 6), .strapOn, .swing, .finished,
            ])
        let errors = scenario.errors
        let offset = errors.accelOffsetG, gyro = errors.gyroOffsetDPS
        // Offsets to a few mg (a tenth of the datasheet's ±50 mg), bias to 0.1 °/s.
        #expect((calibration.accelerometerOffset - Vector3(offset.x, offset.y, offset.z)).maximumMagnitude < 0.005)
        #expect((calibration.gyroBias - Vector3(gyro.x, gyro.y, gyro.z)).maximumMagnitude < 0.1)
        // The accelerometer's correction undoes its sensitivity matrix up to a rotation of the frame
        // (which the still poses cannot see): corrected · true sensitivity is a rotation.
        let accelerometer = calibration.accelerometerMatrix * matrix(errors.accelSensitivity)
        #expect((accelerometer.transposed * accelerometer - .identity).maximumMagnitude < 0.003)
        // The gyro's maps into that same frame, and includes the sample clock's error: a fast clock
        // (shorter true period than the timestamps say) reads as a larger sensitivity.
        let gyroInverse = try #require(matrix(errors.gyroSensitivity).inverse)
        let expected = accelerometer * gyroInverse
        let scaled = Matrix3(
            rows: expected.row0 / (1 + errors.sampleClockError),
            expected.row1 / (1 + errors.sampleClockError), expected.row2 / (1 + errors.sampleClockError))
        #expect((calibration.gyroMatrix - scaled).maximumMagnitude < 0.003)
        // The shin axis is "up" in the strapped start pose (the shank 3° from vertical); extension
        // turns the shank by −θ about its y, so the hinge (positive toward extension) is its −y.
        let toBoard = mounting.transposed
        let shin = toBoard * (Rotation(axis: [0, 1, 0], angleDegrees: 3) * SIMD3(0, 0, 1))
        let hinge = toBoard * SIMD3(0, 1, 0)
        let found = try #require(calibration.mounting)
        #expect(found.shinAxis.angle(to: Vector3(shin.x, shin.y, shin.z)) * 180 / .pi < 1.5)
        #expect(found.hingeAxis.angle(to: Vector3(-hinge.x, -hinge.y, -hinge.z)) * 180 / .pi < 3)
    }

    private func matrix(_ m: SensitivityMatrix) -> Matrix3 {
        Matrix3(
            rows: Vector3(m.row0.x, m.row0.y, m.row0.z), Vector3(m.row1.x, m.row1.y, m.row1.z),
            Vector3(m.row2.x, m.row2.y, m.row2.z))
    }

    @Test func refusesWhenTheDeviceMovesDuringTheGyroBiasWindow() throws {
        // The knee-extension scenario starts moving after 2 s, inside the 3 s window.
        let (result, steps) = try calibrate(SimulationScenario.kneeExtension(seed: 1))
        #expect(steps == [.holdStill])
        guard case .failure(.procedure(.moved)) = result else {
            Issue.record("expected a refusal because the device moved, got \(result)")
            return
        }
    }
}

/// The knee-axis step on the runner: without a thigh sensor it is refused at its first sample.
@Suite struct HingeCalibrationRunTests {
    @Test func isRefusedWithoutTheThighSensor() throws {
        let clock = ManualClock()
        let simulated = try SimulatedSensor(.kneeSwings(seed: 1), clock: clock)
        let calibration = Calibration(mounting: Mounting(shinAxis: .unitZ, hingeAxis: -.unitY))
        let steps = Mutex<[HingeCalibration.Step]>([])
        let run = GuidedProcedureRunner(
            try HingeCalibration(calibration: calibration), sensor: simulated.sensor, tickSeconds: 0.05,
            pacing: .sleeping(clock), label: "test.hinge", onStep: { step in steps.withLock { $0.append(step) } })
        #expect(throws: CalibrationRunFailure.procedure(.needsThighSensor)) { try run.run() }
        #expect(steps.withLock { $0 } == [.sitStill])
        #expect(CalibrationError.needsThighSensor.description.contains("needs the thigh sensor"))
    }
}
