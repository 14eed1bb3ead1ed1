/// A seated knee extension as shank inclination over time: rest, raise to the peak, hold, lower
/// to the return angle, repeated. Each raise and lower is a minimum-jerk movement whose peak speed
/// is `peakSpeedDegreesPerSecond` (duration = 1.875 × amplitude / peak speed).
///
/// Inclination is the shank's sagittal angle from vertical: 0° = shin hanging vertical,
/// 90° = shin horizontal (knee straight while seated).
public struct KneeExtension: Equatable, Sendable {
    /// Inclination before the first raise, degrees.
    public var restDegrees: Double
    /// Inclination at the top of each raise, degrees.
    public var peakDegrees: Double
    /// Peak angular speed of each raise and lower, °/s.
    public var peakSpeedDegreesPerSecond: Double
    /// Time held at the peak, seconds.
    public var holdSeconds: Double
    /// Inclination each lower ends at, degrees.
    public var returnDegrees: Double
    /// Raise–hold–lower cycles, at least 1.
    public var repetitions: Int
    /// Rest before the first raise, seconds.
    public var leadInSeconds: Double
    /// Rest between a lower and the next raise, seconds.
    public var pauseSeconds: Double
    /// Rest after the last lower, seconds.
    public var leadOutSeconds: Double

    public init(
        restDegrees: Double = 5, peakDegrees: Double = 70, peakSpeedDegreesPerSecond: Double = 90,
        holdSeconds: Double = 2, returnDegrees: Double = 5, repetitions: Int = 1,
        leadInSeconds: Double = 2, pauseSeconds: Double = 2, leadOutSeconds: Double = 2
    ) {
        self.restDegrees = restDegrees
        self.peakDegrees = peakDegrees
        self.peakSpeedDegreesPerSecond = peakSpeedDegreesPerSecond
        self.holdSeconds = holdSeconds
        self.returnDegrees = returnDegrees
        self.repetitions = max(1, repetitions)
        self.leadInSeconds = leadInSeconds
        self.pauseSeconds = pauseSeconds
        self.leadOutSeconds = leadOutSeconds
    }

    /// From the start to the end of the last rest, seconds.
    public var durationSeconds: Double {
        let later = Double(repetitions - 1)
        return leadInSeconds + raiseSeconds(from: restDegrees)
            + later * (pauseSeconds + raiseSeconds(from: returnDegrees))
            + Double(repetitions) * (holdSeconds + lowerSeconds) + leadOutSeconds
    }

    /// Inclination (degrees), its rate (°/s) and acceleration (°/s²) at `t` seconds from the start.
    public func inclination(atSeconds t: Double) -> (angle: Double, rate: Double, acceleration: Double) {
        var start = leadInSeconds
        var from = restDegrees
        guard t >= start else { return (restDegrees, 0, 0) }
        for repetition in 0..<repetitions {
            if repetition > 0 {
                if t < start + pauseSeconds { return (from, 0, 0) }
                start += pauseSeconds
            }
            let raise = raiseSeconds(from: from)
            if t < start + raise { return minimumJerk(from: from, to: peakDegrees, duration: raise, t: t - start) }
            start += raise
            if t < start + holdSeconds { return (peakDegrees, 0, 0) }
            start += holdSeconds
            if t < start + lowerSeconds {
                return minimumJerk(from: peakDegrees, to: returnDegrees, duration: lowerSeconds, t: t - start)
            }
            start += lowerSeconds
            from = returnDegrees
        }
        return (returnDegrees, 0, 0)
    }

    private func raiseSeconds(from: Double) -> Double {
        movementSeconds(abs(peakDegrees - from))
    }

    private var lowerSeconds: Double {
        movementSeconds(abs(peakDegrees - returnDegrees))
    }

    private func movementSeconds(_ amplitude: Double) -> Double {
        minimumJerkSeconds(amplitude, peakSpeed: peakSpeedDegreesPerSecond)
    }
}

/// The duration of a minimum-jerk movement of `amplitude` degrees whose peak speed is `peakSpeed`
/// °/s: 1.875 × amplitude / peak speed.
func minimumJerkSeconds(_ amplitude: Double, peakSpeed: Double) -> Double {
    guard peakSpeed > 0 else { return 0 }
    return 1.875 * amplitude / peakSpeed
}

/// s(τ) = 10τ³ − 15τ⁴ + 6τ⁵ (Flash & Hogan 1985), scaled to the amplitude and duration.
func minimumJerk(from: Double, to: Double, duration: Double, t: Double)
    -> (angle: Double, rate: Double, acceleration: Double)
{
    guard duration > 0 else { return (to, 0, 0) }
    let tau = t / duration
    let tau2 = tau * tau
    let tau3 = tau2 * tau
    let s = 10 * tau3 - 15 * tau3 * tau + 6 * tau3 * tau2
    let ds = 30 * tau2 - 60 * tau3 + 30 * tau2 * tau2
    let dds = 60 * tau - 180 * tau2 + 120 * tau3
    let delta = to - from
    return (from + delta * s, delta * ds / duration, delta * dds / (duration * duration))
}
