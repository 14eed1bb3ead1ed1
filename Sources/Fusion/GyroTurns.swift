/// The gyros' turn of an angle since the first of some points, degrees, at each point, and how
/// many gaps (lost samples) lie before it: across one the rate is taken to change linearly
/// (``GyroIntegration``), a guess several degrees off at a fast movement's peak.
struct GyroTurns {
    var angles: [Double]
    var gapsBefore: [Int]

    init(_ points: ArraySlice<TracePoint>, rate: (TracePoint) -> Double) {
        let period = zip(points.dropFirst(), points).map { $0.time - $1.time }.filter { $0 > 0 }.min() ?? 0
        angles = [Double](repeating: 0, count: points.count)
        gapsBefore = [Int](repeating: 0, count: points.count)
        var previous: (time: Double, rate: Double)?
        for (offset, point) in points.enumerated() {
            let current = rate(point)
            if let previous {
                let interval = point.time - previous.time
                angles[offset] =
                    angles[offset - 1]
                    + GyroIntegration.turn(current, previous: previous.rate, interval: interval, period: period)
                let isGap = GyroIntegration.isGap(interval: interval, period: period)
                gapsBefore[offset] = gapsBefore[offset - 1] + (isGap ? 1 : 0)
            }
            previous = (point.time, current)
        }
    }

    /// Whether the turn from point `from` to point `to` has all its samples.
    func isComplete(from: Int, to: Int) -> Bool { gapsBefore[to] == gapsBefore[from] }
}
