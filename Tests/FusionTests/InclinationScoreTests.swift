import Foundation
import Fusion
import FusionAccuracy
import Testing

/// The BROAD inclination metric on small hand-made files whose errors are known exactly.
struct InclinationScoreTests {
    /// A unit vector at `degrees` from +z, tilted toward +x.
    private func tilted(_ degrees: Double) -> Vector3 {
        let r = degrees * Double.pi / 180
        return Vector3(sin(r), 0, cos(r))
    }

    private func traceCSV(_ rows: [(Double, Vector3)]) -> String {
        ([GravityTrace.header] + rows.map { "\($0.0),\($0.1.x),\($0.1.y),\($0.1.z),0.0,90.0" }).joined(separator: "\n")
            + "\n"
    }

    /// Four samples: rest (error 30°, not scored), two movement samples with errors of 3° and 4°, a
    /// movement sample without optical reference (not scored).
    private let reference = """
        time_s,gravity_x,gravity_y,gravity_z,movement
        0.000000,0,0,1,0
        0.010000,0,0,1,1
        0.020000,0,0,2,1
        0.030000,,,,1

        """

    @Test func scoresOnlyMovementSamplesWithAReference() throws {
        let truth = try InclinationReference(csv: reference)
        #expect(truth.isMovement == [false, true, true, true])
        #expect(truth.up[3] == nil)
        #expect(truth.up[2] == .unitZ)
        let trace = try GravityTrace(
            csv: traceCSV([
                (0, tilted(30)), (0.01, tilted(3)), (0.02, tilted(-4) * 3), (0.03, tilted(60)),
            ]))
        let score = try InclinationScore(trace: trace, reference: truth)
        #expect(score.scoredSamples == 2)
        #expect(score.missingReference == 1)
        #expect(score.nonFiniteEstimates == 0)
        #expect(abs(score.rmseDegrees - ((9.0 + 16.0) / 2).squareRoot()) < 1e-9)
        #expect(abs(score.maximumDegrees - 4) < 1e-9)
    }

    @Test func aNaNEstimateMakesTheTrialNaNAndIsReported() throws {
        let truth = try InclinationReference(csv: reference)
        let text = GravityTrace.header + "\n0,0,0,1,0,90\n0.01,nan,-nan,nan,nan,nan\n0.02,0,0,1,0,90\n0.03,0,0,1,0,90\n"
        let trial = try BroadTrialScore(
            trace: try GravityTrace(csv: text), reference: truth, rotationRates: Array(repeating: .zero, count: 4))
        let score = trial.score
        #expect(score.rmseDegrees.isNaN)
        #expect(score.nonFiniteEstimates == 1)
        let manifest = BroadManifest(groups: ["all_trials"], trials: [.init(name: "07_x", groups: ["all_trials"])])
        let report = BroadReport(manifest: manifest, scores: [trial])
        #expect(report.failedTrials == ["07_x"])
        #expect(report.meanRMSE.isNaN)
        #expect(report.text.contains("NaN: 07_x: 1 of 2 scored samples have no finite estimate"))
    }

    @Test func refusesATraceOfOtherSamples() throws {
        let truth = try InclinationReference(csv: reference)
        let short = try GravityTrace(csv: traceCSV([(0, .unitZ), (0.01, .unitZ), (0.02, .unitZ)]))
        #expect(throws: InclinationFileError.mismatch("the trace has 3 samples, the reference 4")) {
            try InclinationScore(trace: short, reference: truth)
        }
        let shifted = try GravityTrace(csv: traceCSV([(0, .unitZ), (0.011, .unitZ), (0.02, .unitZ), (0.03, .unitZ)]))
        #expect(throws: InclinationFileError.self) { try InclinationScore(trace: shifted, reference: truth) }
    }

    @Test func namesTheBadLine() {
        #expect(throws: InclinationFileError.unexpectedHeader(expected: GravityTrace.header, found: "time_s,x")) {
            try GravityTrace(csv: "time_s,x\n0,1\n")
        }
        #expect(throws: InclinationFileError.invalidNumber(line: 3, column: 5, text: "yes")) {
            try InclinationReference(csv: InclinationReference.header + "\n0,0,0,1,0\n0.1,0,0,1,yes\n")
        }
        #expect(throws: InclinationFileError.wrongFieldCount(line: 2, expected: 6, found: 4)) {
            try GravityTrace(csv: GravityTrace.header + "\n0,0,0,1\n")
        }
        #expect(throws: InclinationFileError.zeroVector(line: 2)) {
            try InclinationReference(csv: InclinationReference.header + "\n0,0,0,0,1\n")
        }
        #expect(throws: InclinationFileError.noSamples) { try GravityTrace(csv: GravityTrace.header + "\n") }
    }

    /// A group's figure is the mean of its trials' RMSEs, as the BROAD paper reports them, not an RMSE
    /// over the pooled samples; groups without a converted trial are left out.
    @Test func groupsAverageTheirTrialsRMSEs() throws {
        let truth = try InclinationReference(csv: reference)
        func score(_ degrees: Double) throws -> BroadTrialScore {
            try BroadTrialScore(
                trace: try GravityTrace(
                    csv: traceCSV([
                        (0, .unitZ), (0.01, tilted(degrees)), (0.02, tilted(-degrees)), (0.03, .unitZ),
                    ])), reference: truth, rotationRates: Array(repeating: .zero, count: 4))
        }
        let manifest = BroadManifest(
            groups: ["all_trials", "slow", "fast", "mixed"],
            trials: [
                .init(name: "01_a", groups: ["all_trials", "slow"]),
                .init(name: "06_b", groups: ["all_trials", "fast"]),
                .init(name: "07_c", groups: ["all_trials", "fast"]),
            ])
        let report = BroadReport(manifest: manifest, scores: [try score(1), try score(2), try score(6)])
        #expect(report.groups.map(\.group) == ["all_trials", "slow", "fast"])
        #expect(abs(report.meanRMSE - 3) < 1e-9)
        let fast = try #require(report.fast)
        #expect(fast.trials == 2)
        #expect(abs(fast.meanRMSE - 4) < 1e-9)
        #expect(report.failedTrials.isEmpty)
        #expect(report.text.contains("mean inclination RMSE over all 3 trials: 3.00°"))
        #expect(report.text.contains("mean inclination RMSE over the 2 fast trials: 4.00°"))
        // Four samples hold no window in which to measure a lag: it is not guessed.
        #expect(report.rows.map(\.figures).allSatisfy { $0.lag.samples == nil && $0.scoreAtLag == $0.score })
        #expect(report.text.contains("trials by lag: 3 not measured"))
    }

    /// A trace that is the reference one sample late: scored at lag 1 it is exact, at lag 0 it is off
    /// by the turn of one sample, and the sample whose shifted estimate lies past the trace's end is
    /// not scored.
    @Test func aTraceScoredAtItsLagIsExact() throws {
        let degrees = (0..<8).map { Double($0) * 2 }
        let reference = try InclinationReference(
            csv: ([InclinationReference.header]
                + degrees.enumerated().map { index, angle in
                    let up = tilted(angle)
                    return "\(Double(index) * 0.01),\(up.x),\(up.y),\(up.z),1"
                }).joined(separator: "\n") + "\n")
        let late = [tilted(0)] + degrees.dropLast().map(tilted)
        let trace = try GravityTrace(csv: traceCSV(late.enumerated().map { (Double($0) * 0.01, $1) }))
        let inStep = try InclinationScore(trace: trace, reference: reference)
        #expect(inStep.scoredSamples == 8)
        #expect(abs(inStep.rmseDegrees - (7.0 * 4 / 8).squareRoot()) < 1e-9)
        let atLag = try InclinationScore(trace: trace, reference: reference, lag: 1)
        #expect(atLag.scoredSamples == 7)
        #expect(atLag.rmseDegrees < 1e-9)
    }

    @Test func readsTheConvertersManifest() throws {
        let json =
            #"{"groups": ["all_trials", "fast"], "trials": [{"name": "06_b", "groups": ["all_trials", "fast"]}]}"#
        let manifest = try BroadManifest(json: Data(json.utf8))
        #expect(
            manifest
                == BroadManifest(
                    groups: ["all_trials", "fast"], trials: [.init(name: "06_b", groups: ["all_trials", "fast"])]))
    }
}
