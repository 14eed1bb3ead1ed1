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
    /// Trials whose guided calibration refused the simulated procedure (no measurement).
    public var calibrationRefused: Int
    public var lostSamples: Int

    public init(_ outcomes: [AccuracyTrial.Outcome]) {
        let errors = outcomes.map { $0.rangeError.isNaN ? Double.infinity : abs($0.rangeError) }.sorted()
        func percentile(_ p: Double) -> Double {
            guard !errors.isEmpty else { return .nan }
            return errors[min(errors.count - 1, Int((p * Double(errors.count)).rounded(.up)) - 1)]
        }
        trials = outcomes.count
        rangeErrorMedian = percentile(0.5)
        rangeError95 = percentile(0.95)
        rangeErrorMaximum = errors.last ?? .nan
        let squared = outcomes.reduce(0) { $0 + $1.motionSquaredError }
        let count = outcomes.reduce(0) { $0 + $1.motionSamples }
        gravityRMSE = count > 0 ? (squared / Double(count)).squareRoot() : .nan
        returned = outcomes.filter { $0.endReason == .returned }.count
        timedOut = outcomes.filter { $0.endReason == .timedOut }.count
        flagged = outcomes.filter { !($0.result?.flags.isEmpty ?? true) }.count
        calibrationRefused = outcomes.filter { $0.calibrationRefusal != nil }.count
        lostSamples = outcomes.reduce(0) { $0 + $1.lostSamples }
    }
}
