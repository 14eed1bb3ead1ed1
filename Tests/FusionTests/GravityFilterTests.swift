import Testing
@testable import Fusion
import Sensor

struct GravityFilterTests {
    /// Accelerometer readings of 2 g are rejected, so after the first sample only the gyro acts.
    private func gyroOnly(rate: Vector3, intervals: [Double]) -> GravityFilter {
        var parameters = FusionParameters()
        parameters.restMinimumDuration = .infinity
        var filter = GravityFilter(parameters: parameters)
        var time = 0.0
        filter.update(InertialSample(time: time, acceleration: .unitZ, rotationRate: rate))
        for interval in intervals {
            time += interval
            filter.update(InertialSample(time: time, acceleration: Vector3(2, 0, 0), rotationRate: rate))
        }
        return filter
    }

    @Test(arguments: [(Vector3(30, 0, 0), 3.0), (Vector3(0, -90, 0), 1.0), (Vector3(12, -5, 40), 4.5)])
    func constantRateIntegratesToRateTimesTime(rate: Vector3, seconds: Double) {
        let filter = gyroOnly(rate: rate, intervals: Array(repeating: 0.01, count: Int(seconds * 100)))
        // The world-fixed "up" turns by −ωT in the sensor frame.
        let expected = Vector3.unitZ.rotated(by: rate * (-seconds * Double.pi / 180))
        #expect(filter.gravity.angle(to: expected) * 180 / Double.pi < 1e-9)
    }

    @Test func constantRateIntegratesExactlyWithIrregularIntervals() {
        var rng = SplitMix64(seed: 11)
        let intervals = (0..<400).map { _ in Double.random(in: 0.002...0.03, using: &rng) }
        let total = intervals.reduce(0, +)
        let rate = Vector3(20, 10, -5)
        let filter = gyroOnly(rate: rate, intervals: intervals)
        let expected = Vector3.unitZ.rotated(by: rate * (-total * Double.pi / 180))
        #expect(filter.gravity.angle(to: expected) * 180 / Double.pi < 1e-9)
    }

    @Test func zeroGyroConvergesToTheAccelerometerTilt() {
        var filter = GravityFilter()
        filter.update(InertialSample(time: 0, acceleration: .unitZ, rotationRate: .zero))
        let tilted = Vector3(0.5, -0.3, 0.8).normalized!
        for i in 1...2000 {
            filter.update(InertialSample(time: Double(i) * 0.01, acceleration: tilted, rotationRate: .zero))
        }
        #expect(filter.gravity.angle(to: tilted) * 180 / Double.pi < 0.01)
    }

    @Test func aLongGapBetweenSamplesDoesNotOvershoot() {
        var filter = GravityFilter()
        for i in 0..<300 { filter.update(InertialSample(time: Double(i) * 0.01, acceleration: .unitZ, rotationRate: .zero)) }
        let tilted = Vector3(0.6, 0, 0.8)
        filter.update(InertialSample(time: 10, acceleration: tilted, rotationRate: .zero))
        #expect(filter.gravity.angle(to: tilted) * 180 / Double.pi < 1e-6)
    }

    @Test func startsAtTheMeanOfTheFirstStillSamples() {
        var rng = SplitMix64(seed: 3)
        var filter = GravityFilter()
        let up = Vector3(0.2, 0.1, 0.97).normalized!
        for i in 0..<100 {
            filter.update(InertialSample(time: Double(i) * 0.01, acceleration: up + rng.gaussianVector(sigma: 0.01),
                                         rotationRate: rng.gaussianVector(sigma: 0.05)))
        }
        // One sample's noise is ~1°; the mean of 100 is ~0.1°.
        #expect(filter.gravity.angle(to: up) * 180 / Double.pi < 0.3)
    }

    @Test func learnsTheGyroBiasAtRest() {
        var rng = SplitMix64(seed: 5)
        let bias = Vector3(1.5, -2.5, 0.7)
        var filter = GravityFilter()
        for i in 0..<2000 {
            filter.update(InertialSample(time: Double(i) * 0.005, acceleration: .unitZ + rng.gaussianVector(sigma: 0.003),
                                         rotationRate: bias + rng.gaussianVector(sigma: 0.05)))
        }
        #expect(filter.isAtRest)
        #expect((filter.gyroBias - bias).length < 0.05)
        // With the bias removed, ten seconds of rest leave the estimate on the accelerometer.
        #expect(filter.gravity.angle(to: .unitZ) * 180 / Double.pi < 0.2)
    }

    @Test func doesNotLearnBiasWhileMoving() {
        var filter = GravityFilter()
        // A steady 30 °/s turn about x with the accelerometer following: not rest.
        for i in 0..<1000 {
            let t = Double(i) * 0.01
            let up = Vector3.unitZ.rotated(by: Vector3(-30 * t * Double.pi / 180, 0, 0))
            filter.update(InertialSample(time: t, acceleration: up, rotationRate: Vector3(30, 0, 0)))
        }
        #expect(!filter.isAtRest)
        #expect(filter.gyroBias == .zero)
    }

    @Test func aSteadyTurnAboutTheVerticalAfterRestIsNotTakenForBias() {
        var filter = GravityFilter()
        var time = 0.0
        for _ in 0..<300 { filter.update(InertialSample(time: time, acceleration: .unitZ, rotationRate: .zero)); time += 0.01 }
        #expect(filter.isAtRest)
        for _ in 0..<500 { filter.update(InertialSample(time: time, acceleration: .unitZ, rotationRate: Vector3(0, 0, 20))); time += 0.01 }
        #expect(!filter.isAtRest)
        #expect(filter.gyroBias.length < 1e-9)
    }

    @Test func rejectsAccelerationFarFromOneG() {
        func run(threshold: Double) -> Double {
            var parameters = FusionParameters()
            parameters.accelerationRejectionThreshold = threshold
            var filter = GravityFilter(parameters: parameters)
            var time = 0.0
            for _ in 0..<500 { filter.update(InertialSample(time: time, acceleration: .unitZ, rotationRate: .zero)); time += 0.01 }
            // Half a second of a 0.8 g shove sideways, gyro still.
            for _ in 0..<50 { filter.update(InertialSample(time: time, acceleration: Vector3(0.8, 0, 1), rotationRate: .zero)); time += 0.01 }
            return filter.gravity.angle(to: .unitZ) * 180 / Double.pi
        }
        #expect(run(threshold: 0.1) < 1e-9)
        // Without rejection the same shove tilts the estimate by degrees: the test means something.
        #expect(run(threshold: .infinity) > 3)
    }

    @Test func followsAKneeExtensionWithinADegree() {
        var imu = SyntheticIMU(motion: .kneeExtension(peak: 85), gyroNoise: 0.05, accelerationNoise: 0.003)
        imu.sampleRate = 200
        var filter = GravityFilter()
        var squaredError = 0.0, count = 0
        for sample in imu.samples() {
            filter.update(sample)
            if sample.time > 2.5, sample.time < 6.5 {
                let errorDegrees = filter.gravity.angle(to: imu.trueGravity(at: sample.time)) * 180 / Double.pi
                squaredError += errorDegrees * errorDegrees
                count += 1
            }
        }
        #expect((squaredError / Double(count)).squareRoot() < 1)
    }
}
