import Foundation
import Fusion
import FusionAccuracy
import Testing

/// The lag between a recording's gyro and its optical reference, on a sensor whose turns are known
/// exactly, its gyro moved by whole samples against the reference.
struct ReferenceLagTests {
    /// BROAD's sample rate.
    static let period = 0.0035

    /// A sensor turned about body axes, one after another, each through a half-cosine profile over
    /// a whole number of samples, with rests between. The gyro is each interval's mean rate (the
    /// angle the interval turned, over its length), as a sensor's sample is; the reference is the
    /// world's up seen from the sensor.
    struct Turns {
        var rates: [Vector3] = []
        var up: [Vector3] = []
        var isMovement: [Bool] = []

        init() {
            var current = Vector3.unitZ
            func rest(_ count: Int) {
                for _ in 0..<count {
                    rates.append(.zero)
                    up.append(current)
                    isMovement.append(false)
                }
            }
            func turn(about axis: Vector3, degrees: Double, samples: Int) {
                let start = current
                func angle(_ index: Int) -> Double {
                    degrees * (1 - cos(Double.pi * Double(index) / Double(samples))) / 2
                }
                for index in 1...samples {
                    rates.append(axis * ((angle(index) - angle(index - 1)) / period))
                    // The world turns the other way about the body-fixed axis.
                    current = start.rotated(by: axis * (-angle(index) * Double.pi / 180))
                    up.append(current)
                    isMovement.append(true)
                }
            }
            rest(100)
            turn(about: .unitX, degrees: 60, samples: 200)
            turn(about: .unitY, degrees: -45, samples: 150)
            rest(50)
            turn(about: .unitZ, degrees: 90, samples: 300)
            turn(about: Vector3(0.3, -1, 0.5).normalized!, degrees: 80, samples: 120)
            turn(about: Vector3(1, 1, 0).normalized!, degrees: -90, samples: 250)
            rest(100)
        }

        func reference(missing: (Int) -> Bool = { _ in false }) -> InclinationReference {
            InclinationReference(
                times: up.indices.map { Double($0) * period },
                up: up.enumerated().map { missing($0) ? nil : $1 }, isMovement: isMovement)
        }

        /// The gyro `lag` samples late: sample i reads what the sensor turned in interval i − lag.
        func rates(late lag: Int, scale: Double = 1, bias: Vector3 = .zero) -> [Vector3] {
            rates.indices.map { index in
                let source = index - lag
                return (rates.indices.contains(source) ? rates[source] * scale : .zero) + bias
            }
        }
    }

    let turns = Turns()

    @Test(arguments: [-2, 0, 1, 3])
    func findsTheSamplesByWhichTheGyroIsLate(lag: Int) throws {
        let measured = try ReferenceLag(rotationRates: turns.rates(late: lag), reference: turns.reference())
        #expect(measured.samples == lag)
        #expect(abs(measured.samplePeriod - Self.period) < 1e-12)
        #expect(measured.windows > 50)
        for (shift, mismatch) in zip(ReferenceLag.shifts, measured.mismatchDegrees) {
            if shift == lag {
                // Only the up vector's mean over each interval standing in for it is left.
                #expect(mismatch < 0.001)
            } else {
                // Each sample off adds what the rate changes by in one sample over a window: 0.09°
                // for these turns of up to 140 °/s.
                #expect(mismatch > 0.05 * Double(abs(shift - lag)))
            }
        }
    }

    /// A gyro's bias and scale error add to the mismatch at every shift alike; the lag stays.
    @Test func aBiasAndAScaleErrorDoNotMoveTheLag() throws {
        let rates = turns.rates(late: 1, scale: 1.03, bias: Vector3(0.5, -0.3, 0.4))
        let measured = try ReferenceLag(rotationRates: rates, reference: turns.reference())
        #expect(measured.samples == 1)
        #expect(measured.mismatchDegrees.min()! > 0.01)
    }

    /// Windows with a missing reference sample are left out; with none left, no lag is claimed.
    @Test func windowsWithoutAReferenceAreLeftOut() throws {
        let all = try ReferenceLag(rotationRates: turns.rates(late: 1), reference: turns.reference())
        let gappy = try ReferenceLag(
            rotationRates: turns.rates(late: 1), reference: turns.reference { $0 % 40 == 0 && $0 < 600 })
        #expect(gappy.windows < all.windows)
        #expect(gappy.samples == 1)
        let none = try ReferenceLag(rotationRates: turns.rates(late: 1), reference: turns.reference { $0 % 10 == 0 })
        #expect(none.windows == 0)
        #expect(none.samples == nil)
        #expect(none.mismatchDegrees.allSatisfy { $0.isNaN })
    }

    /// A recording whose IMU runs a sample late, and an estimate that follows that IMU exactly: the
    /// report gives the benchmark's score in step, the lag, and the score at that lag beside it.
    @Test func theReportShowsEachTrialsLagAndTheScoreThere() throws {
        let reference = turns.reference()
        let trace = GravityTrace(times: reference.times, gravity: [turns.up[0]] + turns.up.dropLast())
        let trial = try BroadTrialScore(trace: trace, reference: reference, rotationRates: turns.rates(late: 1))
        #expect(trial.lag.samples == 1)
        #expect(trial.score.rmseDegrees > 0.2)
        #expect(trial.scoreAtLag.rmseDegrees < 1e-6)
        let report = BroadReport(
            manifest: BroadManifest(groups: ["all_trials"], trials: [.init(name: "06_turns", groups: ["all_trials"])]),
            scores: [trial])
        #expect(report.meanRMSE == trial.score.rmseDegrees)
        #expect(report.text.contains("trials by lag: 1 at +1 (3.50 ms)"))
        #expect(
            report.text.contains("scored at each trial's lag (not the benchmark's figure): 0.00° over all trials\n"))
    }

    @Test func refusesAGyroOfOtherSamples() {
        #expect(throws: InclinationFileError.mismatch("the recording has 3 samples, the reference \(turns.up.count)")) {
            try ReferenceLag(rotationRates: [.zero, .zero, .zero], reference: turns.reference())
        }
    }
}
