import Testing
import Fusion
import FusionAccuracy

/// The accuracy experiment of `make bench` on a few seeds per error source: datasheet sensor errors
/// through the simulator, the driver, the guided calibration and the measurement session. The bounds
/// are what the present filter holds on these seeds with some margin, not the targets; the bench
/// reports every row over more sessions.
struct AccuracyTests {
    @Test func calibratedSessionsWithEveryErrorSourceMeasureTheRangeWithinBounds() throws {
        let outcomes = try (1...UInt64(6)).map { try AccuracyTrial(seed: $0, source: .all, calibrated: true).run() }
        let summary = AccuracySummary(outcomes)
        #expect(summary.calibrationRefused == 0)
        #expect(summary.rangeErrorMaximum <= 2.0)
    }

    @Test(arguments: [ErrorSource.gyroCrossAxis, .accelCrossAxis, .gyroScale, .clockError])
    func calibrationRemovesASensitivityError(source: ErrorSource) throws {
        let outcomes = try (1...UInt64(4)).map { try AccuracyTrial(seed: $0, source: source, calibrated: true).run() }
        let summary = AccuracySummary(outcomes)
        #expect(summary.calibrationRefused == 0)
        #expect(summary.returned == 4)
        #expect(summary.rangeErrorMaximum <= 0.5)
    }

    @Test func aTypicalUncalibratedPartStaysWithinBounds() throws {
        let outcomes = try (1...UInt64(6)).map {
            try AccuracyTrial(seed: $0, source: .typicalPart, calibrated: false).run()
        }
        let summary = AccuracySummary(outcomes)
        #expect(summary.rangeErrorMaximum <= 4.0)
    }
}
