/// Statistics over many ``AccuracyTrial`` outcomes.
public struct AccuracySummary: Sendable {
    public var trials: Int
    /// |range error| percentiles and maximum, degrees (trials without a result count as infinite).
    public var rangeErrorMedian: Double
    public var rangeError95: Double
    public var rangeErrorMaximum: Double
    /// Gravity-direction RMSE over all samples in motion, degrees.
    public var gravityRMSE: Double
    /// Trials that ended by themselves (leg back and still), and by the session's time-out.
    public var returned: Int
    public var timedOut: Int
    /// Trials with any quality flag.
    public var flagged: Int
    /// The largest |range error| of a result without flags, degrees (nil when every result has one):
    /// what a clinician reading only the clean results can be off by.
    public var unflaggedErrorMaximum: Double?
    /// Trials whose guided calibration refused the simulated procedure (no measurement).
    public var calibrationRefused: Int
    public var lostSamples: Int
    /// |error| of the knee angles.
    public var kneeExtensionError: ErrorPercentiles
    public var kneeFlexionError: ErrorPercentiles
    public var kneeArcError: ErrorPercentiles

    public init(_ outcomes: [AccuracyTrial.Outcome]) {
        let range = ErrorPercentiles(outcomes.map(\.rangeError))
        trials = outcomes.count
        rangeErrorMedian = range.median
        rangeError95 = range.p95
        rangeErrorMaximum = range.maximum
        kneeExtensionError = ErrorPercentiles(outcomes.map(\.kneeExtensionError))
        kneeFlexionError = ErrorPercentiles(outcomes.map(\.kneeFlexionError))
        kneeArcError = ErrorPercentiles(outcomes.map(\.kneeArcError))
        let squared = outcomes.reduce(0) { $0 + $1.motionSquaredError }
        let count = outcomes.reduce(0) { $0 + $1.motionSamples }
        gravityRMSE = count > 0 ? (squared / Double(count)).squareRoot() : .nan
        returned = outcomes.filter { $0.endReason == .returned }.count
        timedOut = outcomes.filter { $0.endReason == .timedOut }.count
        flagged = outcomes.filter { !($0.result?.flags.isEmpty ?? true) }.count
        unflaggedErrorMaximum =
            outcomes.filter { $0.result?.flags.isEmpty ?? false }.map { abs($0.rangeError) }.max()
        calibrationRefused = outcomes.filter { $0.calibrationRefusal != nil }.count
        lostSamples = outcomes.reduce(0) { $0 + $1.lostSamples }
    }
}

/// The median, 95th percentile and maximum of absolute errors, degrees; an error that is `nan` (no
/// result) counts as infinite.
public struct ErrorPercentiles: Sendable {
    public var median: Double
    public var p95: Double
    public var maximum: Double

    public init(_ errors: [Double]) {
        let sorted = errors.map { $0.isNaN ? Double.infinity : abs($0) }.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            return sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        median = percentile(0.5)
        p95 = percentile(0.95)
        maximum = sorted.last ?? .nan
    }
}
