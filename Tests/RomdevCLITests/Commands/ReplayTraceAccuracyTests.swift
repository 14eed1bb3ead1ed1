import Foundation
import Fusion
import FusionAccuracy
import Testing

/// The path `make bench-broad` takes, on a synthetic trial with exact truth: a recording and a
/// reference file in the converter's formats, `romdev replay --trace`, and the BROAD inclination
/// score of the trace.
struct ReplayTraceAccuracyTests {
    /// A sensor turned about its own origin (so the accelerometer reads gravity alone) through
    /// half-cosine turns about fixed body axes, with 3 s of rest before and after; 200 Hz, the
    /// device's rate (the filter integrates each gyro sample over the interval before it, which at
    /// this rate leads a turn of 100 °/s by a quarter of a degree at most).
    struct TurningSensor {
        struct Turn {
            var axis: Vector3
            var degrees: Double
            var seconds: Double
        }

        struct Sample {
            var time: Double
            /// The world's axes seen from the sensor: the rows of the sensor-to-world rotation.
            var worldX, worldY, worldZ: Vector3
            /// °/s.
            var rate: Vector3
            var isMoving: Bool
        }

        static let turns = [
            Turn(axis: .unitX, degrees: 70, seconds: 2), Turn(axis: .unitY, degrees: -50, seconds: 1.5),
            Turn(axis: .unitZ, degrees: 120, seconds: 2),
            Turn(axis: Vector3(0.3, -1, 0.5).normalized!, degrees: 80, seconds: 1),
            Turn(axis: Vector3(1, 1, 0).normalized!, degrees: -95, seconds: 2.5),
        ]
        static let rest = 3.0
        static let rate = 200.0

        static func samples() -> [Sample] {
            var axes = (Vector3.unitX, Vector3.unitY, Vector3.unitZ)
            var samples: [Sample] = []
            var start = rest
            func append(_ time: Double, _ turn: Turn?, progress: Double) {
                guard let turn else {
                    samples.append(
                        Sample(time: time, worldX: axes.0, worldY: axes.1, worldZ: axes.2, rate: .zero, isMoving: false)
                    )
                    return
                }
                let angle = turn.degrees * (1 - cos(Double.pi * progress)) / 2
                let rate = turn.degrees * Double.pi / (2 * turn.seconds) * sin(Double.pi * progress)
                // The world, seen from a sensor turning by `angle` about `axis`, turns the other way.
                let turnBack = turn.axis * (-angle * Double.pi / 180)
                samples.append(
                    Sample(
                        time: time, worldX: axes.0.rotated(by: turnBack), worldY: axes.1.rotated(by: turnBack),
                        worldZ: axes.2.rotated(by: turnBack), rate: turn.axis * rate, isMoving: true))
            }
            var index = 0
            var time: Double { Double(index) / rate }
            while time < rest {
                append(time, nil, progress: 0)
                index += 1
            }
            for turn in turns {
                while time < start + turn.seconds {
                    append(time, turn, progress: (time - start) / turn.seconds)
                    index += 1
                }
                let end = turn.axis * (-turn.degrees * Double.pi / 180)
                axes = (axes.0.rotated(by: end), axes.1.rotated(by: end), axes.2.rotated(by: end))
                start += turn.seconds
            }
            while time < start + rest {
                append(time, nil, progress: 0)
                index += 1
            }
            return samples
        }

        static func recordingCSV(_ samples: [Sample]) -> String {
            let rows = samples.map { s in
                "\(s.time),\(s.worldZ.x),\(s.worldZ.y),\(s.worldZ.z),\(s.rate.x),\(s.rate.y),\(s.rate.z),25.0"
            }
            return ([Recording.header] + rows).joined(separator: "\n") + "\n"
        }

        /// The reference as the converter writes it, without optical data for `gap`.
        static func referenceCSV(_ samples: [Sample], gap: Range<Int>) -> String {
            let rows = samples.enumerated().map { index, s in
                let up = gap.contains(index) ? ",," : "\(s.worldZ.x),\(s.worldZ.y),\(s.worldZ.z)"
                return "\(s.time),\(up),\(s.isMoving ? 1 : 0)"
            }
            return ([InclinationReference.header] + rows).joined(separator: "\n") + "\n"
        }

        static func traceCSV(_ samples: [Sample], gravity: [Vector3]) -> String {
            let rows = zip(samples, gravity).map { s, g in
                "\(String(format: "%.6f", s.time)),\(String(format: "%.6f,%.6f,%.6f", g.x, g.y, g.z)),0.000,90.000"
            }
            return ([GravityTrace.header] + rows).joined(separator: "\n") + "\n"
        }

        /// `gravity` turned in the world frame by `degrees` about the world's x axis.
        static func tilted(_ gravity: Vector3, in sample: Sample, degrees: Double) -> Vector3 {
            let world = Vector3(sample.worldX.dot(gravity), sample.worldY.dot(gravity), sample.worldZ.dot(gravity))
            let r = degrees * Double.pi / 180
            let turned = Vector3(world.x, world.y * cos(r) - world.z * sin(r), world.y * sin(r) + world.z * cos(r))
            return sample.worldX * turned.x + sample.worldY * turned.y + sample.worldZ * turned.z
        }
    }

    private let samples = TurningSensor.samples()
    /// 0.3 s in the middle of the second turn without optical reference.
    private let gap = 960..<1020

    private func replayTrace() throws -> (GravityTrace, InclinationReference) {
        let romdev = try InProcessRomdev()
        let recording = romdev.directory.path + "/turns.csv", trace = romdev.directory.path + "/turns.trace.csv"
        try TurningSensor.recordingCSV(samples).write(toFile: recording, atomically: true, encoding: .utf8)
        try romdev.run(["replay", recording, "--trace", trace])
        let reference = try InclinationReference(csv: TurningSensor.referenceCSV(samples, gap: gap))
        return (try GravityTrace(csv: try String(contentsOfFile: trace, encoding: .utf8)), reference)
    }

    @Test func theReplayedTraceFollowsTheTrueInclination() throws {
        let (trace, reference) = try replayTrace()
        let score = try InclinationScore(trace: trace, reference: reference)
        #expect(score.scoredSamples == samples.filter(\.isMoving).count - gap.count)
        #expect(score.missingReference == gap.count)
        #expect(score.nonFiniteEstimates == 0)
        #expect(score.rmseDegrees < 0.2)
    }

    /// Each row of the trace is the estimate after its own sample, so the trace adds no lag of its
    /// own to a recording's: taken as one sample late, it scores worse (0.34° against 0.12°), not
    /// better, as it would if it wrote each estimate before the sample's update.
    @Test func theTraceAddsNoLagOfItsOwn() throws {
        let (trace, reference) = try replayTrace()
        let inStep = try InclinationScore(trace: trace, reference: reference)
        let takenAsLate = try InclinationScore(trace: trace, reference: reference, lag: 1)
        #expect(takenAsLate.rmseDegrees > 2 * inStep.rmseDegrees)
    }

    /// The metric itself: the truth with its vertical tilted by a fixed 5° scores 5°, and so does the
    /// replayed trace within its own error (per sample the error moves by at most the trace's error).
    @Test func aFixedTiltOfTheVerticalScoresAsThatTilt() throws {
        let (trace, reference) = try replayTrace()
        let truthTilted = samples.map { TurningSensor.tilted($0.worldZ, in: $0, degrees: 5) }
        let exact = try InclinationScore(
            trace: try GravityTrace(csv: TurningSensor.traceCSV(samples, gravity: truthTilted)), reference: reference)
        #expect(abs(exact.rmseDegrees - 5) < 1e-3)
        #expect(abs(exact.maximumDegrees - 5) < 1e-3)

        let replayed = try InclinationScore(trace: trace, reference: reference)
        let traceTilted = zip(samples, trace.gravity).map { TurningSensor.tilted($1, in: $0, degrees: 5) }
        let tilted = try InclinationScore(
            trace: try GravityTrace(csv: TurningSensor.traceCSV(samples, gravity: traceTilted)), reference: reference)
        #expect(abs(tilted.rmseDegrees - 5) <= replayed.rmseDegrees + 1e-3)
        #expect(tilted.rmseDegrees > 4)
    }
}
