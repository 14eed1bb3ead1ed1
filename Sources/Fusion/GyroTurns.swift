/// The gyros' turn of an angle since the first of some points, degrees, at each point, and how
/// many gaps (lost samples) lie before it.
///
/// An MPU-6050 sample is the low-passed rate at its instant (the filter's output read at the
/// sample rate), as its accelerometer sample is the low-passed force at the same instant. So
/// between two samples the rate is taken to change linearly, the trapezoid: the causal filter's
/// step, the later sample held over the period (``GyroIntegration``), runs half a period ahead of
/// the accelerometer, 0.5° at 200 °/s, which the still phases' angles and the movement's samples
/// would read as gain. Across a gap the same line is a guess, several degrees off at a fast
/// movement's peak.
struct GyroTurns {
    var angles: [Double]
    var gapsBefore: [Int]
    /// The sensor's sample period, seconds: the shortest interval between two points.
    var period: Double

    init(_ points: ArraySlice<TracePoint>, rate: (TracePoint) -> Double) {
        period = GyroIntegration.period(ofTimes: points.map(\.time))
        angles = [Double](repeating: 0, count: points.count)
        gapsBefore = [Int](repeating: 0, count: points.count)
        var previous: (time: Double, rate: Double)?
        for (offset, point) in points.enumerated() {
            let current = rate(point)
            if let previous {
                let interval = point.time - previous.time
                angles[offset] = angles[offset - 1] + (previous.rate + current) / 2 * interval
                let isGap = GyroIntegration.isGap(interval: interval, period: period)
                gapsBefore[offset] = gapsBefore[offset - 1] + (isGap ? 1 : 0)
            }
            previous = (point.time, current)
        }
    }

    /// Whether the turn from point `from` to point `to` has all its samples.
    func isComplete(from: Int, to: Int) -> Bool { gapsBefore[to] == gapsBefore[from] }

    /// The points within `range` that follow a gap.
    func gaps(in range: ClosedRange<Int>) -> [Int] {
        guard range.lowerBound > 0, !isComplete(from: range.lowerBound - 1, to: range.upperBound) else { return [] }
        return range.filter { gapsBefore[$0] > gapsBefore[$0 - 1] }
    }
}
