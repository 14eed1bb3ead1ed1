import Testing

@testable import Fusion

struct GyroTurnsTests {
    private func points(_ times: [Double], rate: (Double) -> Double) -> ArraySlice<TracePoint> {
        ArraySlice(
            times.map { time in
                TracePoint(
                    time: time, gravity: .unitZ, acceleration: .unitZ, rotationRate: Vector3(0, 0, rate(time)),
                    isTurning: true)
            })
    }

    /// The samples are the rate at their instants, as an MPU-6050's low-passed output read at the
    /// sample rate: a rate rising at 1000 °/s² turns the leg by 500 t² exactly, where holding each
    /// sample over the period before it would run 2.5 ms, or 0.5° at 200 °/s, ahead.
    @Test func samplesOfARateAtTheirInstantsAreIntegratedExactly() {
        let times = (0...40).map { Double($0) * 0.005 }
        let turns = GyroTurns(points(times) { 1000 * $0 }) { $0.rotationRate.z }
        for (time, angle) in zip(times, turns.angles) { #expect(abs(angle - 500 * time * time) < 1e-9) }
        #expect(turns.gapsBefore.allSatisfy { $0 == 0 })
    }

    @Test func lostSamplesAreCountedAndBridgedByTheSameLine() {
        let times = (0...10).map { Double($0) * 0.005 } + (41...50).map { Double($0) * 0.005 }
        let turns = GyroTurns(points(times) { 1000 * $0 }) { $0.rotationRate.z }
        for (time, angle) in zip(times, turns.angles) { #expect(abs(angle - 500 * time * time) < 1e-9) }
        #expect(turns.isComplete(from: 0, to: 10))
        #expect(!turns.isComplete(from: 10, to: 11))
        #expect(turns.isComplete(from: 11, to: 20))
    }
}
