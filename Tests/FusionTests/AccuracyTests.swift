import Fusion
import FusionAccuracy
import Testing

/// The accuracy experiment of `make bench` on a few seeds per error source: datasheet sensor errors
/// through the simulator, the driver, the guided calibration and the measurement session. The bench
/// reports every row over 100 sessions; these seeded bounds hold on any machine.
struct AccuracyTests {
    /// Every error source at once, calibrated: the present filter's worst on seeds 1–6 is 1.11°
    /// (seed 5; the thigh's sway and drift dominate), against a bound of 1.5°; every session ends
    /// by the return, with no sample lost to the loaded host.
    @Test func calibratedSessionsWithEveryErrorSourceMeasureTheRangeWithinBounds() throws {
        let outcomes = try (1...UInt64(6)).map { try AccuracyTrial(seed: $0, source: .all, calibrated: true).run() }
        let summary = AccuracySummary(outcomes)
        #expect(summary.calibrationRefused == 0)
        #expect(summary.returned == 6)
        #expect(summary.lostSamples == 0)
        #expect(summary.rangeErrorMaximum <= 1.5)
    }

    /// Each sensitivity error alone, calibrated, leaves only what noise leaves (under 0.1° on these
    /// seeds): the guided calibration's full matrices accept datasheet cross-axis terms and remove
    /// them, and the clock's error with the gyro's.
    @Test(arguments: [ErrorSource.gyroCrossAxis, .accelCrossAxis, .gyroScale, .accelScale, .clockError])
    func calibrationRemovesASensitivityError(source: ErrorSource) throws {
        let outcomes = try (1...UInt64(4)).map { try AccuracyTrial(seed: $0, source: source, calibrated: true).run() }
        let summary = AccuracySummary(outcomes)
        #expect(summary.calibrationRefused == 0)
        #expect(summary.returned == 4)
        #expect(summary.rangeErrorMaximum <= 0.2)
    }

    /// A gyro whose zero moves with the pose (0.1 °/s per g on a typical axis): the calibration
    /// integrates each tip with the bias of its own faces, so its gyro matrix holds, and the
    /// session's rests measure the bias of the hanging leg. Within 0.15° on these seeds; with one
    /// bias for every face the calibration's matrix took the pose's bias for a gain, 0.18° here.
    @Test func aGyroWhoseZeroMovesWithThePoseIsCalibratedAway() throws {
        let outcomes = try (1...UInt64(6)).map {
            try AccuracyTrial(seed: $0, source: .gyroAccelerationSensitivity, calibrated: true).run()
        }
        let summary = AccuracySummary(outcomes)
        #expect(summary.calibrationRefused == 0)
        #expect(summary.returned == 6)
        #expect(summary.rangeErrorMaximum <= 0.15)
    }

    /// The thigh swaying and drifting by a degree or two: every session still ends by itself, none
    /// by the time-out, and most are flagged unsteady (88 of 100 in the bench's calibrated row, 95
    /// of 100 uncalibrated: the others turned the shank at under 0.3 °/s while it hung at rest); 0
    /// of 100 in every row where the thigh is still, which the rows above check through their empty
    /// flags.
    @Test func aMovingThighNeverHoldsTheSession() throws {
        let outcomes = try (1...UInt64(8)).map {
            try AccuracyTrial(seed: $0, source: .thighMotion, calibrated: true).run()
        }
        let summary = AccuracySummary(outcomes)
        #expect(summary.returned == 8)
        #expect(summary.flagged >= 6)
    }

    /// A patient shifting on the chair, the thigh swaying ±2…3°: every session is flagged (100 of
    /// 100 in the bench, calibrated and not).
    @Test func aShiftingThighIsFlagged() throws {
        let outcomes = try (1...UInt64(8)).map {
            try AccuracyTrial(seed: $0, source: .largeThighMotion, calibrated: true).run()
        }
        let summary = AccuracySummary(outcomes)
        #expect(summary.returned == 8)
        #expect(summary.flagged == 8)
    }

    /// A patient who moves 0.5…1.2 s in, before the start's rest is confirmed, with an uncalibrated
    /// part's every error (a gyro bias up to 20 °/s): every session is flagged moved-at-start and
    /// still measured within 3° (2.99° at most over the bench's 100; 64° when the samples were fused
    /// only with the bias the live filter had).
    @Test func aLegThatMovesEarlyIsFlaggedAndMeasuredWithTheBiasLearntLater() throws {
        let outcomes = try (1...UInt64(8)).map {
            try AccuracyTrial(seed: $0, source: .earlyStart, calibrated: false).run()
        }
        #expect(outcomes.allSatisfy { $0.result?.flags.contains(.movedAtStart) ?? false })
        #expect(AccuracySummary(outcomes).rangeErrorMaximum <= 3)
    }

    /// The arc with every sensor and host error but a still thigh, calibrated: every session follows
    /// both steps to the end; the knee arc is as exact as the range (0.12° at most on these seeds).
    /// The extension and flexion carry the calibration's strapped pose as their zero: the simulated
    /// patient straps on with the shin 3° forward, which both show (2.9–3.1° on these seeds).
    @Test func theArcsKneeAnglesOnCalibratedSessions() throws {
        let outcomes = try (1...UInt64(6)).map {
            try AccuracyTrial(seed: $0, source: .allButThigh, calibrated: true, measurementProtocol: .arc).run()
        }
        let summary = AccuracySummary(outcomes)
        #expect(summary.returned == 6)
        #expect(summary.flagged == 0)
        #expect(summary.kneeArcError.maximum <= 0.3)
        #expect(outcomes.allSatisfy { abs($0.kneeExtensionError - 3) <= 0.3 && abs($0.kneeFlexionError - 3) <= 0.3 })
        // Flexion past 90° is measured as such.
        #expect(outcomes.allSatisfy { ($0.result?.kneeFlexion ?? 0) > 100 })
    }

    /// The same with the shin hanging plumb when the calibration took it as vertical, as the seated
    /// assumption has it: the knee angles are then as exact as the arc (the bench: knee_extension
    /// 0.27°, knee_flexion 0.24° at most over 100 sessions, against 3° off with the shin 3° forward).
    @Test func theArcsKneeAnglesWithTheShinPlumbAtCalibration() throws {
        let outcomes = try (1...UInt64(6)).map {
            var trial = AccuracyTrial(seed: $0, source: .allButThigh, calibrated: true, measurementProtocol: .arc)
            trial.calibrationShinDegrees = 0
            return try trial.run()
        }
        let summary = AccuracySummary(outcomes)
        #expect(summary.returned == 6)
        #expect(summary.kneeExtensionError.maximum <= 0.3)
        #expect(summary.kneeFlexionError.maximum <= 0.3)
        #expect(summary.kneeArcError.maximum <= 0.3)
    }

    /// A still thigh is not flagged unsteady, even with the accelerometer's offsets drifting as the
    /// die warms; the calibrated range stays within the target's 0.5°.
    @Test func aStillThighIsNotFlagged() throws {
        let outcomes = try (1...UInt64(4)).map {
            try AccuracyTrial(seed: $0, source: .accelOffsets, calibrated: true).run()
        }
        let summary = AccuracySummary(outcomes)
        #expect(summary.flagged == 0)
        #expect(summary.rangeErrorMaximum <= 0.5)
    }

    /// A typical part without calibration (5–30 mg offsets, ±1.5 % scale): within the 1.5° p95 the
    /// uncalibrated device is allowed (1.22° at most over the bench's 100 sessions, p95 0.43°, with
    /// each still pose's accelerometer tilt estimated). Its raw accelerometer in every pose would
    /// give 2.0° on these seeds.
    @Test func aTypicalUncalibratedPartStaysWithinBounds() throws {
        let outcomes = try (1...UInt64(6)).map {
            try AccuracyTrial(seed: $0, source: .typicalPart, calibrated: false).run()
        }
        let summary = AccuracySummary(outcomes)
        #expect(summary.returned == 6)
        #expect(summary.rangeErrorMaximum <= 1.5)
    }

    /// With the thigh sensor, every error source on both sensors and the thigh swaying ±2…3° and
    /// drifting 1…3°, the boards strapped as the wiring guide puts them: the knee angles are the
    /// knee's own. Calibrated, the bench's 100 sessions per protocol are within 1.17° (target
    /// 1.5°); every session ends by the return, unflagged. Uncalibrated, knee_extension and
    /// knee_flexion carry the thigh board's accelerometer offset along the thigh (its x axis,
    /// ±50 mg), which a thigh that turns by a few degrees leaves almost unobservable: p95 1.4–1.9°
    /// and max 3.3° over the bench's sessions.
    @Test(arguments: MeasurementProtocol.allCases, [true, false])
    func theThighSensorTakesTheThighsMotionOutOfTheKneeAngles(
        measurementProtocol: MeasurementProtocol, calibrated: Bool
    ) throws {
        let outcomes = try (1...UInt64(4)).map {
            try AccuracyTrial(
                seed: $0, calibrated: calibrated, measurementProtocol: measurementProtocol, thighSensor: true,
                strapping: .asGuided
            ).run()
        }
        let summary = AccuracySummary(outcomes)
        #expect(summary.returned == 4)
        #expect(summary.flagged == 0)
        #expect(outcomes.allSatisfy { $0.result?.kneeAngleSource == .thighSensor })
        let bound = calibrated ? 1.0 : 2.0
        #expect(summary.kneeExtensionError.maximum <= bound)
        #expect(summary.kneeFlexionError.maximum <= bound)
        #expect(summary.kneeArcError.maximum <= bound)
    }

    /// A person who sits still after the swing until the calibration says it is done: the rest
    /// after the return can take the detector 1.7 s to confirm, and this bench session's
    /// calibration (boards at any rotation, the thigh's) was refused, its swing step timed out,
    /// when the simulated person got up 3 s after the return.
    @Test func theCalibrationsSwingIsWaitedFor() throws {
        let outcome = try AccuracyTrial(seed: 62, calibrated: true, thighSensor: true, strapping: .anyRotation).run()
        #expect(outcome.calibrationRefusal == nil, "\(outcome.calibrationRefusal.map { "\($0)" } ?? "")")
        #expect(outcome.endReason == .returned)
    }

    /// With the thigh sensor the leg rests when the knee does, and the steps follow the knee: a
    /// thigh rocking ±2…3° turns both sensors together, faster than a rest allows, while the knee
    /// is still. These are bench sessions that ended otherwise when the rests were both sensors'
    /// and the steps the shank's tilt: the arc's flexion taken into the extension step for want of
    /// a rest between them and waited for to the time-out (uncalibrated seed 11, calibrated seed
    /// 3), the return never still (extension, seed 82), the start's rest never confirmed before the
    /// leg set off (extension, seed 20), and a flexion step the shank's tilt never showed begin (a
    /// typical part, seed 89).
    @Test(arguments: [
        (MeasurementProtocol.arc, false, UInt64(11), ErrorSource.all), (.arc, true, 3, .all),
        (.extension, true, 82, .all),
        (.extension, true, 20, .all), (.arc, false, 89, .typicalPart),
    ])
    func aThighRockingOnTheChairLeavesTheKneeAtRest(
        measurementProtocol: MeasurementProtocol, calibrated: Bool, seed: UInt64, source: ErrorSource
    ) throws {
        let outcome = try AccuracyTrial(
            seed: seed, source: source, calibrated: calibrated, measurementProtocol: measurementProtocol,
            thighSensor: true
        ).run()
        let result = try #require(outcome.result)
        #expect(outcome.endReason == .returned)
        #expect(result.flags.isEmpty, "\(result.flags.names)")
        #expect(abs(outcome.kneeExtensionError) <= 1.5)
        #expect(abs(outcome.kneeFlexionError) <= 1.5)
    }

    /// A knee held at the top of the arc's extension that still sags under 2 °/s: each still
    /// phase's accelerometer window is cut short at the phase's ends, where it leans into the
    /// phase, so the gyro's path pinned to those ends missed the peak, by 0.70° on this bench
    /// session (calibrated, every error, thigh sensor), where reading each end from a whole window
    /// carried there by the gyro leaves 0.42°.
    @Test func aPhasesEndsAreReadFromWholeWindows() throws {
        let outcome = try AccuracyTrial(
            seed: 96, source: .all, calibrated: true, measurementProtocol: .arc, thighSensor: true
        ).run()
        let result = try #require(outcome.result)
        #expect(outcome.endReason == .returned)
        #expect(result.flags.isEmpty, "\(result.flags.names)")
        #expect(abs(outcome.kneeExtensionError) <= 0.5, "knee_extension off by \(outcome.kneeExtensionError)°")
    }
}
