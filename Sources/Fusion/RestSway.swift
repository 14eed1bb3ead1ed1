/// How far a hanging shank turned within its rests by its gyro: what a thigh swaying or shifting
/// under a resting leg does, which one shank sensor cannot tell from the knee's own turn.
///
/// The accelerometer's wander and turn (``RestAnchoredAngles``) judge the same thing but need still
/// phases long enough to average, and a thigh swaying ±1.5° over 5 s turns the shank faster than the
/// 2 °/s that ends a still phase for most of each swing, while near its turning points the leg passes
/// for resting; a trembling leg's tangential accelerations then hide the accelerometer's turn. The
/// gyro integrates the turn to hundredths of a degree through tremor (0.02° at 8 Hz) over whatever the
/// rest detector called rest. Its bias is the mean rate over every rest: a still thigh leaves the
/// hanging shank the same rate, nil, in each, while a sway, or a drift that changes pace, turns it
/// at different rates in different rests or within one.
enum RestSway {
    /// The shortest rest judged, seconds: a sway shows over a rest, not over an instant.
    static let minimumSeconds = 0.5

    /// The largest turn (degrees, largest less smallest) within any of the rests (index ranges of
    /// samples the rest detector called still, relative to the slice's start), each without its
    /// first ``RestAnchoredAngles/comingToRestSeconds`` (a let-fall leg's pendulum settling; not at
    /// the first point, where the leg has been resting for the start pose) and last
    /// ``RestAnchoredAngles/settingOffSeconds``. 0 when no rest is long enough.
    static func largestWander(_ points: ArraySlice<TracePoint>, rests runs: [Range<Int>], hinge: Vector3) -> Double {
        // Each rest's interior: its times and turn rates about the hinge.
        let base = points.startIndex
        let rests = runs.compactMap { run -> (times: [Double], rates: [Double])? in
            let first = points[base + run.lowerBound].time, last = points[base + run.upperBound - 1].time
            let from = run.lowerBound == 0 ? first : first + RestAnchoredAngles.comingToRestSeconds
            let to = last - RestAnchoredAngles.settingOffSeconds
            guard to - from >= minimumSeconds else { return nil }
            let interior = points[(base + run.lowerBound)..<(base + run.upperBound)].filter {
                $0.time >= from && $0.time <= to
            }
            return (interior.map(\.time), interior.map { $0.measuredRotationRate.dot(hinge) })
        }
        let count = rests.reduce(0) { $0 + $1.rates.count }
        guard count > 0 else { return 0 }
        let bias = rests.reduce(0) { $0 + $1.rates.reduce(0, +) } / Double(count)
        var largest = 0.0
        for (times, rates) in rests {
            // The turn since the rest's first sample, by the gyro less the bias.
            var angle = 0.0, low = 0.0, high = 0.0
            for index in rates.indices.dropFirst() {
                angle += (rates[index] - bias) * (times[index] - times[index - 1])
                low = min(low, angle)
                high = max(high, angle)
            }
            largest = max(largest, high - low)
        }
        return largest
    }
}
