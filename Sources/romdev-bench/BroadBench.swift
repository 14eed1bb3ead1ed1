import Foundation
import Fusion
import FusionAccuracy

/// `romdev-bench broad DIR`: scores the traces of the converted BROAD trials in DIR (`broad.json`,
/// and per trial `NAME.csv` and `NAME.truth.csv` from the converter and `NAME.trace.csv` from
/// `romdev replay --trace`) and prints the inclination RMSE per trial and group, and each trial's
/// lag between the recording's gyro and the optical reference. Exits 1 when a file cannot be used
/// or any trial's error is NaN.
enum BroadBench {
    static let command = "broad"
    static let usage =
        "usage: romdev-bench broad DIR   (DIR: broad.json, NAME.csv, NAME.truth.csv and NAME.trace.csv per trial)"

    static func run(_ arguments: [String]) -> Never {
        guard arguments.count == 1, let directory = arguments.first, !directory.hasPrefix("-") else {
            fail(usage, status: 64)
        }
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        let manifest: BroadManifest
        do {
            manifest = try BroadManifest(json: try Data(contentsOf: url.appendingPathComponent("broad.json")))
        } catch {
            fail("error: cannot read \(url.appendingPathComponent("broad.json").path): \(error)")
        }
        var scores: [BroadTrialScore] = []
        for trial in manifest.trials {
            let recordingURL = url.appendingPathComponent("\(trial.name).csv")
            let truthURL = url.appendingPathComponent("\(trial.name).truth.csv")
            let traceURL = url.appendingPathComponent("\(trial.name).trace.csv")
            do {
                let recording = try Recording(csv: try String(contentsOf: recordingURL, encoding: .utf8))
                let reference = try InclinationReference(csv: try String(contentsOf: truthURL, encoding: .utf8))
                let trace = try GravityTrace(csv: try String(contentsOf: traceURL, encoding: .utf8))
                scores.append(
                    try BroadTrialScore(
                        trace: trace, reference: reference, rotationRates: recording.samples.map(\.rotationRate)))
            } catch {
                fail("error: \(trial.name) (\(recordingURL.path), \(traceURL.path), \(truthURL.path)): \(error)")
            }
        }
        let report = BroadReport(manifest: manifest, scores: scores)
        print("== BROAD (Laidig et al., Data 2021): 6D inclination RMSE of 'romdev replay --trace' against the")
        print("   optical reference, over the samples in movement phases that have a reference; groups are")
        print("   the dataset's, a group's figure is the mean of its trials' RMSEs. 'lag': the shift, in samples,")
        print("   at which the recording's gyro best matches the turn of the optical reference, from the data")
        print("   alone (positive: the IMU's samples come later); a lag counts as error for every filter")
        print(report.text, terminator: "")
        if !report.failedTrials.isEmpty {
            fail("error: \(report.failedTrials.count) trial(s) have a NaN inclination error")
        }
        exit(0)
    }

    private static func fail(_ message: String, status: Int32 = 1) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(status)
    }
}
