import Fusion

/// How many samples a recording's gyro runs behind its optical reference, measured from the data
/// alone, before any filter: a time offset between the two streams counts as orientation error for
/// every filter alike, in proportion to how fast the sensor turns.
///
/// The reference's "up" direction u, seen from the sensor, turns as du/dt = u × ω (ω the sensor's
/// rate in its own frame). Over a short window of movement, the change of u the optical reference
/// shows is compared with the change the gyro predicts, the gyro's samples taken `shift` samples
/// later; the lag is the shift at which the two agree best. A gyro sample is the mean rate over the
/// interval it ends, so with the two streams in step the lag is 0; a positive lag means the IMU's
/// samples come later than the reference's. The gyro's bias and scale errors add the same mismatch
/// at every shift, so they do not move the minimum.
public struct ReferenceLag: Sendable, Equatable {
    /// The shifts compared, samples.
    public static let shifts = -3...3
    /// Samples per window: 15 at BROAD's 285.7 Hz is 52 ms, in which a turn of 100 °/s moves the
    /// vertical by 5°, far above the optical reference's noise, while u changes little enough that
    /// its mean over each interval stands for it.
    public static let window = 15

    /// The shift with the smallest mismatch; nil when no window of movement had a reference at all
    /// of its samples.
    public var samples: Int?
    /// The root mean square mismatch of each shift in ``shifts``, degrees.
    public var mismatchDegrees: [Double]
    /// How many windows were compared.
    public var windows: Int
    /// The median interval between samples, seconds: what a lag of one sample is in time.
    public var samplePeriod: Double

    /// - Parameters:
    ///   - rotationRates: the gyro of each sample of the recording, °/s.
    ///   - reference: the optical reference of the same samples.
    /// - Throws: ``InclinationFileError/mismatch(_:)`` when the two do not have the same samples.
    public init(rotationRates: [Vector3], reference: InclinationReference) throws(InclinationFileError) {
        let count = reference.times.count
        guard rotationRates.count == count else {
            throw .mismatch("the recording has \(rotationRates.count) samples, the reference \(count)")
        }
        let intervals = zip(reference.times.dropFirst(), reference.times).map { $0 - $1 }
        samplePeriod = intervals.isEmpty ? .nan : intervals.sorted()[intervals.count / 2]

        let shifts = Self.shifts, n = Self.window
        var squared = [Double](repeating: 0, count: shifts.count)
        var windows = 0
        var start = -shifts.lowerBound
        while start + n + shifts.upperBound < count {
            defer { start += n }
            let end = start + n
            guard reference.isMovement[start], reference.isMovement[end] else { continue }
            guard let first = reference.up[start], let last = reference.up[end],
                reference.up[start...end].allSatisfy({ $0 != nil })
            else { continue }
            let shown = last - first
            // Per interval of the window, the mean of u over it and its length in radians per °/s:
            // the same for every shift.
            var steps: [(index: Int, up: Vector3, scale: Double)] = []
            steps.reserveCapacity(n)
            for index in (start + 1)...end {
                let up = (reference.up[index - 1]! + reference.up[index]!) * 0.5
                let scale = (reference.times[index] - reference.times[index - 1]) * Double.pi / 180
                steps.append((index, up, scale))
            }
            for (slot, shift) in shifts.enumerated() {
                var predicted = Vector3.zero
                for step in steps { predicted += step.up.cross(rotationRates[step.index + shift] * step.scale) }
                squared[slot] += (shown - predicted).lengthSquared
            }
            windows += 1
        }
        self.windows = windows
        mismatchDegrees = squared.map { windows > 0 ? ($0 / Double(windows)).squareRoot() * 180 / Double.pi : .nan }
        samples = windows > 0 ? zip(shifts, mismatchDegrees).min { $0.1 < $1.1 }?.0 : nil
    }
}
