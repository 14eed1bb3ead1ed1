import Foundation
import Fusion

/// The converted BROAD trials and their groups (`broad.json`, written by `bench/broad/convert.py`):
/// the groups in the dataset's order, and the trials that were converted with the groups each is in.
public struct BroadManifest: Sendable, Decodable, Equatable {
    public struct Trial: Sendable, Decodable, Equatable {
        public var name: String
        public var groups: [String]

        public init(name: String, groups: [String]) {
            self.name = name
            self.groups = groups
        }
    }

    public var groups: [String]
    public var trials: [Trial]

    public init(groups: [String], trials: [Trial]) {
        self.groups = groups
        self.trials = trials
    }

    /// - Throws: `DecodingError` for a file that is not such a manifest.
    public init(json: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: json)
    }
}

/// One trial's figures: the benchmark's score, and how much of it the timing of the recording makes.
public struct BroadTrialScore: Sendable, Equatable {
    /// The benchmark's score: each estimate against the reference of its own sample.
    public var score: InclinationScore
    /// How far the recording's gyro runs behind the optical reference.
    public var lag: ReferenceLag
    /// The estimates scored against the reference at that lag; the benchmark's score when the lag
    /// is 0 or could not be measured.
    public var scoreAtLag: InclinationScore

    /// - Parameters:
    ///   - trace: the estimate, as `romdev replay --trace` writes it.
    ///   - reference: the optical reference of the same samples.
    ///   - rotationRates: the recording's gyro, °/s, one per sample.
    /// - Throws: ``InclinationFileError/mismatch(_:)`` when the three do not have the same samples.
    public init(trace: GravityTrace, reference: InclinationReference, rotationRates: [Vector3])
        throws(InclinationFileError)
    {
        score = try InclinationScore(trace: trace, reference: reference)
        lag = try ReferenceLag(rotationRates: rotationRates, reference: reference)
        if let samples = lag.samples, samples != 0 {
            scoreAtLag = try InclinationScore(trace: trace, reference: reference, lag: samples)
        } else {
            scoreAtLag = score
        }
    }
}

/// Per-trial inclination RMSE and the group means the BROAD paper reports: a group's figure is the
/// mean of its trials' RMSEs (not an RMSE over the pooled samples), so long and short trials weigh
/// the same. Beside them, each trial's lag between the IMU and the optical reference and what the
/// mean would be at those lags: the benchmark scores without any shift, so a time offset in the
/// recording counts against every filter, and the report shows how much.
public struct BroadReport: Sendable {
    public struct TrialRow: Sendable {
        public var trial: BroadManifest.Trial
        public var figures: BroadTrialScore
    }

    public struct GroupRow: Sendable, Equatable {
        public var group: String
        public var trials: Int
        public var meanRMSE: Double
    }

    public var rows: [TrialRow]
    /// Every group of the manifest that has at least one trial, in the manifest's order.
    public var groups: [GroupRow]
    /// The mean RMSE over all trials, degrees.
    public var meanRMSE: Double
    /// The dataset's "fast" group, when it has trials.
    public var fast: GroupRow?
    /// Trials whose RMSE is NaN: a non-finite estimate, or nothing to score.
    public var failedTrials: [String]
    /// The mean RMSE over all trials, and over the fast ones, with each trial scored at its lag.
    public var meanRMSEAtLag: Double
    public var fastMeanRMSEAtLag: Double?

    public init(manifest: BroadManifest, scores: [BroadTrialScore]) {
        precondition(manifest.trials.count == scores.count, "one score per trial")
        rows = zip(manifest.trials, scores).map { TrialRow(trial: $0, figures: $1) }
        func mean(_ rows: [TrialRow], _ score: KeyPath<TrialRow, InclinationScore> = \.figures.score) -> Double {
            rows.isEmpty ? .nan : rows.reduce(0) { $0 + $1[keyPath: score].rmseDegrees } / Double(rows.count)
        }
        let rows = self.rows
        groups = manifest.groups.compactMap { group in
            let members = rows.filter { $0.trial.groups.contains(group) }
            return members.isEmpty ? nil : GroupRow(group: group, trials: members.count, meanRMSE: mean(members))
        }
        meanRMSE = mean(rows)
        fast = groups.first { $0.group == "fast" }
        failedTrials = rows.filter { $0.figures.score.rmseDegrees.isNaN }.map(\.trial.name)
        meanRMSEAtLag = mean(rows, \.figures.scoreAtLag)
        fastMeanRMSEAtLag = fast.map { _ in
            mean(rows.filter { $0.trial.groups.contains("fast") }, \.figures.scoreAtLag)
        }
    }

    /// The report as printed: the table of trials, the table of groups, the two headline means, the
    /// trials' lags with the means scored at them and, loudly, any NaN.
    public var text: String {
        let nameWidth = max(5, rows.map(\.trial.name.count).max() ?? 0)
        var lines = [
            "\(padded("trial", nameWidth))  RMSE °   max °  scored  no reference  lag"
        ]
        for row in rows {
            let s = row.figures.score
            lines.append(
                "\(padded(row.trial.name, nameWidth)) \(number(s.rmseDegrees, 7)) \(number(s.maximumDegrees, 7))"
                    + " \(padded(String(s.scoredSamples), 7, right: true)) \(padded(String(s.missingReference), 13, right: true))"
                    + " \(padded(row.figures.lag.samples.map(signed) ?? "–", 4, right: true))"
            )
        }
        let groupWidth = max(5, groups.map(\.group.count).max() ?? 0)
        lines.append("")
        lines.append("\(padded("group", groupWidth))  trials  mean RMSE °")
        for group in groups {
            lines.append(
                "\(padded(group.group, groupWidth)) \(padded(String(group.trials), 7, right: true)) \(number(group.meanRMSE, 12))"
            )
        }
        lines.append("")
        lines.append("mean inclination RMSE over all \(rows.count) trials: \(number(meanRMSE, 0))°")
        if let fast {
            lines.append("mean inclination RMSE over the \(fast.trials) fast trials: \(number(fast.meanRMSE, 0))°")
        }
        lines.append("")
        let lags = Dictionary(grouping: rows.compactMap(\.figures.lag.samples), by: { $0 }).sorted { $0.key < $1.key }
        let period = rows.map(\.figures.lag.samplePeriod).first { $0.isFinite }
        let measured = lags.reduce(0) { $0 + $1.value.count }
        let counts =
            lags.map { lag, trials in
                let time = period.map { String(format: " (%.2f ms)", Double(lag) * $0 * 1000) } ?? ""
                return "\(trials.count) at \(signed(lag))\(time)"
            } + (measured < rows.count ? ["\(rows.count - measured) not measured"] : [])
        lines.append("trials by lag: " + counts.joined(separator: ", "))
        lines.append(
            "scored at each trial's lag (not the benchmark's figure): \(number(meanRMSEAtLag, 0))° over all trials"
                + (fastMeanRMSEAtLag.map { ", \(number($0, 0))° over the fast ones" } ?? ""))
        for row in rows where row.figures.score.rmseDegrees.isNaN {
            let s = row.figures.score
            lines.append(
                s.nonFiniteEstimates > 0
                    ? "NaN: \(row.trial.name): \(s.nonFiniteEstimates) of \(s.scoredSamples) scored samples have no finite estimate"
                    : "NaN: \(row.trial.name): no sample to score")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func signed(_ samples: Int) -> String { samples > 0 ? "+\(samples)" : "\(samples)" }

    private func number(_ value: Double, _ width: Int) -> String {
        padded(value.isNaN ? "NaN" : String(format: "%.2f", value), width, right: true)
    }

    private func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
