import Testing

@testable import Fusion

struct GyroIntegrationTests {
    @Test func aSamplePeriodIsTheRateTimesTheInterval() {
        #expect(GyroIntegration.turn(120.0, previous: 80, interval: 0.005, period: 0.005) == 0.6)
        // Within two and a half periods of the sensor's: jitter or a single lost sample.
        #expect(GyroIntegration.turn(120.0, previous: 80, interval: 0.012, period: 0.005) == 120 * 0.012)
    }

    @Test func acrossLostSamplesARateChangingLinearlyIsIntegratedExactly() {
        // Mean rates over each 5 ms period of a rate rising at 1000 °/s²; the 30 samples after the
        // one at `last` are lost.
        let period = 0.005
        func sample(_ index: Int) -> Double { 1000 * (Double(index) - 0.5) * period }
        let last = 40, next = 71
        let truth = (last + 1...next).map { sample($0) * period }.reduce(0, +)
        let turn = GyroIntegration.turn(
            sample(next), previous: sample(last), interval: Double(next - last) * period, period: period)
        #expect(abs(turn - truth) < 1e-9)
        // The later sample's rate held over the gap: 11.6° too far.
        #expect(abs(sample(next) * Double(next - last) * period - truth) > 11)
    }

    @Test func withoutAPreviousSampleTheRateIsHeld() {
        #expect(GyroIntegration.turn(50.0, previous: nil, interval: 0.1, period: 0.005) == 5)
    }
}
