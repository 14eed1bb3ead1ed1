/// What the gyro's path misses across the gaps (lost samples) that follow an anchor of the angle:
/// one unknown turn per gap, read from the accelerometer between the gaps and, where the interval
/// ends at another anchor, from what is left there.
///
/// A FIFO that overflowed in the middle of a movement loses up to its whole capacity (0.43 s at
/// 200 Hz). Across such a gap the gyro's path is the trapezoid's guess, tens of degrees off at a
/// brisk movement's peak, and the guess's miss is a step at the gap, not a drift: spread evenly in
/// time over the interval, as a residual bias is, it would put half of the miss into a peak that
/// lies before the gap, or take it from one that lies after. After the gaps the path is still the
/// gyro's, offset by the steps; the accelerometer's angle, less the lever arm's lean, places each
/// stretch between two gaps, and the anchor at the end, if any, ties their sum.
struct LostTurns {
    /// The index of the first point after each gap, relative to the slice's start, and the gap's
    /// step, degrees.
    private(set) var steps: [(index: Int, degrees: Double)] = []
    /// The residual bias, °/s, where the interval ends at an anchor; 0 otherwise.
    private(set) var bias = 0.0

    /// Spread of the gyro's miss across one gap, degrees: a fast movement's peak lost in a gap of
    /// half a second bends the rate by hundreds of degrees per second from the line between the
    /// samples on either side.
    static let stepSigma = 30.0

    /// One observation of the unknowns: the accelerometer's angle at a point between the gaps, less
    /// the gyro's path there, read through `steps` (the gaps before the point), the time since the
    /// anchor, and the lever arm's lean per metre along the shin and forward axes.
    struct Observation {
        var gapsBefore: Int
        var seconds: Double
        var lean: (shin: Double, forward: Double)
        var value: Double
        var variance: Double
    }

    /// - Parameters:
    ///   - gaps: the index of the first point after each gap.
    ///   - end: the residual at the closing anchor (its angle less the gyro's path there, degrees),
    ///     `seconds` after the opening one, with its variance; `nil` when the interval is open.
    ///   - observations: the accelerometer's readings of the steps, their variances already counting
    ///     how many samples make one observation. `observe(position)` builds them about a guess of
    ///     the sensor's position from the knee's axis (metres along the shin and forward axes),
    ///     `nil` where the lever arm is not fitted.
    init(
        gaps: [Int], end: (residual: Double, seconds: Double, variance: Double)?, fitsLeverArm: Bool,
        observe: ((shin: Double, forward: Double)) -> [Observation]
    ) {
        guard !gaps.isEmpty else { return }
        let biasIndex = gaps.count, leverIndex = gaps.count + (end == nil ? 0 : 1)
        let count = leverIndex + (fitsLeverArm ? 2 : 0)
        var priors = [Double](repeating: Self.stepSigma, count: gaps.count)
        if end != nil { priors.append(AccelerometerPoseErrors.biasSigma) }
        if fitsLeverArm { priors += [LeverArm.positionSigma, LeverArm.positionSigma] }
        func fit(_ observations: [Observation]) -> [Double]? {
            var precision = (0..<count).map { row in (0..<count).map { $0 == row ? 1 / (priors[row] * priors[row]) : 0 }
            }
            var information = [Double](repeating: 0, count: count)
            func add(_ row: [(Int, Double)], _ value: Double, _ variance: Double) {
                for (i, a) in row {
                    information[i] += a * value / variance
                    for (j, b) in row { precision[i][j] += a * b / variance }
                }
            }
            if let end {
                add((0..<gaps.count).map { ($0, 1.0) } + [(biasIndex, end.seconds)], end.residual, end.variance)
            }
            for observation in observations {
                var row = (0..<observation.gapsBefore).map { ($0, 1.0) }
                if end != nil { row.append((biasIndex, observation.seconds)) }
                if fitsLeverArm {
                    row += [(leverIndex, observation.lean.shin), (leverIndex + 1, observation.lean.forward)]
                }
                add(row, observation.value, observation.variance)
            }
            return solve(precision, information)
        }
        // The lean is linear in the position only near a guess of it: nil, then the first fit's.
        var position = (shin: 0.0, forward: 0.0)
        var unknowns: [Double]?
        for _ in 0..<(fitsLeverArm ? 2 : 1) {
            guard let fitted = fit(observe(position)) else { break }
            unknowns = fitted
            if fitsLeverArm { position = (fitted[leverIndex], fitted[leverIndex + 1]) }
        }
        guard let unknowns else { return }
        steps = zip(gaps, unknowns).map { (index: $0, degrees: $1) }
        if end != nil { bias = unknowns[biasIndex] }
    }

    /// The sum of the steps of the gaps before point `index`, plus the bias's drift over `seconds`
    /// since the anchor.
    func offset(at index: Int, seconds: Double) -> Double {
        steps.reduce(0) { $1.index <= index ? $0 + $1.degrees : $0 } + bias * seconds
    }
}
