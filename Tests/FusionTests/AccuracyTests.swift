import Testing
import Fusion
import FusionAccuracy

/// The accuracy harness on a small seeded set: datasheet sensor errors through the simulator, the
/// driver, calibration and the measurement session. Bounds are looser than the benchmark's targets
/// (which `make bench` reports over 200 sessions) but catch any regression of the pipeline.
struct AccuracyTests {
    @Test(arguments: [(AccuracyTrial.HostLoad.idle, 20), (.loaded, 10)])
    func seededSimulatedSessionsMeasureTheRangeWithinBounds(load: AccuracyTrial.HostLoad, sessions: Int) throws {
        let outcomes = try (1...UInt64(sessions)).map { try AccuracyTrial(seed: $0, load: load).run() }
        let summary = AccuracySummary(outcomes)
        #expect(summary.rangeError95 <= 1.0)
        #expect(summary.rangeErrorMaximum <= 2.0)
        #expect(summary.gravityRMSE <= 1.0)
        #expect(summary.lostSamples == 0)
        #expect(summary.returned == sessions)
        #expect(summary.flagged == 0)
    }
}
