/// The full seated arc as shank inclination over time: rest, extend to the peak, hold, return,
/// rest, slide the foot back under the chair past vertical, hold, return, rest. Each movement is
/// minimum-jerk with peak speed `peakSpeedDegreesPerSecond`, as in ``KneeExtension``.
///
/// Inclination as in ``KneeExtension``: 0° = shin hanging vertical, positive toward extension;
/// the flexion step goes negative (knee flexion 90° − inclination, past 90°).
public struct KneeArc: Equatable, Sendable {
    /// Inclination before the extension, degrees.
    public var restDegrees: Double
    /// Inclination at the top of the extension, degrees.
    public var extensionDegrees: Double
    /// Inclination each return ends at, degrees.
    public var returnDegrees: Double
    /// Inclination at the deepest point of the flexion, degrees (negative: past vertical).
    public var flexionDegrees: Double
    /// Peak angular speed of each movement, °/s.
    public var peakSpeedDegreesPerSecond: Double
    /// Time held at each extreme, seconds.
    public var holdSeconds: Double
    /// Rest before the extension, seconds.
    public var leadInSeconds: Double
    /// Rest between the two steps, seconds: long enough for a rest detector (1.5 s of stillness
    /// once the movement's rotation has faded from its reference).
    public var pauseSeconds: Double
    /// Rest after the last return, seconds.
    public var leadOutSeconds: Double

    public init(
        restDegrees: Double = 5, extensionDegrees: Double = 75, returnDegrees: Double = 5,
        flexionDegrees: Double = -30, peakSpeedDegreesPerSecond: Double = 90, holdSeconds: Double = 2,
        leadInSeconds: Double = 2, pauseSeconds: Double = 4, leadOutSeconds: Double = 4
    ) {
        self.restDegrees = restDegrees
        self.extensionDegrees = extensionDegrees
        self.returnDegrees = returnDegrees
        self.flexionDegrees = flexionDegrees
        self.peakSpeedDegreesPerSecond = peakSpeedDegreesPerSecond
        self.holdSeconds = holdSeconds
        self.leadInSeconds = leadInSeconds
        self.pauseSeconds = pauseSeconds
        self.leadOutSeconds = leadOutSeconds
    }

    /// The script: each piece holds (`from == to`) or moves from one inclination to the next.
    private var pieces: [(from: Double, to: Double, seconds: Double)] {
        func move(_ from: Double, _ to: Double) -> (from: Double, to: Double, seconds: Double) {
            (from, to, minimumJerkSeconds(abs(to - from), peakSpeed: peakSpeedDegreesPerSecond))
        }
        return [
            (restDegrees, restDegrees, leadInSeconds), move(restDegrees, extensionDegrees),
            (extensionDegrees, extensionDegrees, holdSeconds), move(extensionDegrees, returnDegrees),
            (returnDegrees, returnDegrees, pauseSeconds), move(returnDegrees, flexionDegrees),
            (flexionDegrees, flexionDegrees, holdSeconds), move(flexionDegrees, returnDegrees),
            (returnDegrees, returnDegrees, leadOutSeconds),
        ]
    }

    /// From the start to the end of the last rest, seconds.
    public var durationSeconds: Double { pieces.reduce(0) { $0 + $1.seconds } }

    /// Inclination (degrees), its rate (°/s) and acceleration (°/s²) at `t` seconds from the start.
    public func inclination(atSeconds t: Double) -> (angle: Double, rate: Double, acceleration: Double) {
        var start = 0.0
        for piece in pieces {
            if t < start + piece.seconds {
                guard piece.from != piece.to else { return (piece.from, 0, 0) }
                return minimumJerk(from: piece.from, to: piece.to, duration: piece.seconds, t: max(0, t - start))
            }
            start += piece.seconds
        }
        return (returnDegrees, 0, 0)
    }
}
