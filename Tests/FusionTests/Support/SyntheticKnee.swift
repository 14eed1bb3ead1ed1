import Fusion
import Sensor

#if canImport(Glibc)
import Glibc
#endif

/// A ground-truth shank motion: the sagittal angle (degrees) through keyframes, eased with half
/// cosines between them and constant before the first and after the last.
struct KneeMotion {
    var keyframes: [(time: Double, angle: Double)]
    /// A slow sway of the whole leg from the thigh rocking, added to the keyframes: amplitude
    /// (degrees) and period (seconds).
    var sway: (amplitude: Double, period: Double) = (0, 1)
    /// Sinusoids of amplitude (degrees), frequency (Hz) and phase (rad).
    typealias Tremor = [(amplitude: Double, frequency: Double, phase: Double)]
    /// A physiological tremor added to the keyframes.
    var tremor: Tremor = []

    var duration: Double { keyframes.last?.time ?? 0 }

    /// A tremor of `rms` degrees of four equal sinusoids at 6–10 Hz, the band of a relaxed leg's.
    static func tremor(rms: Double, random: inout SplitMix64) -> Tremor {
        // Four sinusoids of amplitude a have an rms of a·√2.
        let amplitude = rms / 2.0.squareRoot()
        return (0..<4).map { _ in
            (amplitude, Double.random(in: 6...10, using: &random), Double.random(in: 0..<2 * Double.pi, using: &random))
        }
    }

    /// Angle (rad), rate (rad/s), angular acceleration (rad/s²) at `time`.
    func state(at time: Double) -> (angle: Double, rate: Double, acceleration: Double) {
        var (angle, rate, acceleration) = kneeState(at: time)
        for (degrees, omega, phase) in [(sway.amplitude, 2 * Double.pi / sway.period, 0.0)]
            + tremor.map({ ($0.amplitude, 2 * Double.pi * $0.frequency, $0.phase) })
        {
            let amplitude = degrees * Double.pi / 180
            let sine = sin(omega * time + phase)
            angle += amplitude * sine
            rate += amplitude * omega * cos(omega * time + phase)
            acceleration -= amplitude * omega * omega * sine
        }
        return (angle, rate, acceleration)
    }

    private func kneeState(at time: Double) -> (angle: Double, rate: Double, acceleration: Double) {
        let radians = Double.pi / 180
        guard let first = keyframes.first else { return (0, 0, 0) }
        if time <= first.time { return (first.angle * radians, 0, 0) }
        for (a, b) in zip(keyframes, keyframes.dropFirst()) where time < b.time {
            let span = b.time - a.time, delta = (b.angle - a.angle) * radians
            let s = (time - a.time) / span
            return (
                a.angle * radians + delta * (1 - cos(Double.pi * s)) / 2,
                delta * Double.pi / (2 * span) * sin(Double.pi * s),
                delta * Double.pi * Double.pi / (2 * span * span) * cos(Double.pi * s)
            )
        }
        return (keyframes[keyframes.count - 1].angle * radians, 0, 0)
    }

    /// Still at `start` for `still` s, up to `peak` in `rise` s, held `hold` s, back down in `fall`
    /// s, still for `still` s more.
    static func kneeExtension(
        start: Double = 0, peak: Double, still: Double = 2.5, rise: Double = 1.5,
        hold: Double = 1, fall: Double = 1.5
    ) -> KneeMotion {
        var t = still
        var frames: [(Double, Double)] = [(t, start)]
        t += rise
        frames.append((t, peak))
        t += hold
        frames.append((t, peak))
        t += fall
        frames.append((t, start))
        t += still
        frames.append((t, start))
        return KneeMotion(keyframes: frames)
    }
}

/// Synthetic IMU samples of a sensor strapped to the shin, from a ``KneeMotion``.
///
/// Shin frame: x forward, y lateral, z along the shin toward the knee. Extension turns the shin about
/// −y, so the true mounting has shin axis z and hinge −y in the shin frame; `mounting` (a rotation
/// vector) turns shin-frame vectors into the sensor frame.
struct SyntheticIMU {
    var motion: KneeMotion
    var mounting = Vector3.zero
    var sampleRate = 100.0
    /// Distance of the sensor below the knee's axis, m.
    var leverArm = 0.3
    var gyroNoise = 0.0
    var accelerationNoise = 0.0
    /// Correlation of each sample's accelerometer noise with the previous one's: the sensor's
    /// digital low-pass (44 Hz at 200 Hz: about 0.5) leaves neighbouring samples alike.
    var accelerationNoiseCorrelation = 0.0
    var gyroBias = Vector3.zero
    /// Gyro sensitivity relative to nominal per axis (datasheet ±3 %).
    var gyroScale = Vector3(1, 1, 1)
    /// Standard deviation of the sampling instants' jitter, s.
    var timingJitter = 0.0
    /// The gyro clips at this magnitude per axis, °/s.
    var gyroFullScale = Double.infinity
    var seed: UInt64 = 1

    /// The true mounting in the sensor frame.
    var trueMounting: Mounting {
        Mounting(shinAxis: Vector3.unitZ.rotated(by: mounting), hingeAxis: (-Vector3.unitY).rotated(by: mounting))!
    }

    func samples(until end: Double? = nil) -> [InertialSample] {
        var rng = SplitMix64(seed: seed)
        let count = Int(((end ?? motion.duration) * sampleRate).rounded()) + 1
        var samples: [InertialSample] = []
        samples.reserveCapacity(count)
        let correlation = accelerationNoiseCorrelation
        var accelerationError = Vector3.zero
        for i in 0..<count {
            var time = Double(i) / sampleRate
            if timingJitter > 0, i > 0 {
                time += max(-0.4 / sampleRate, min(0.4 / sampleRate, rng.gaussian() * timingJitter))
            }
            let (angle, rate, acceleration) = motion.state(at: time)
            // Sensor position relative to the knee: r (sin θ, 0, −cos θ); its second derivative.
            let linear =
                Vector3(
                    acceleration * cos(angle) - rate * rate * sin(angle), 0,
                    acceleration * sin(angle) + rate * rate * cos(angle)) * (leverArm / 9.80665)
            let specificForceWorld = linear + .unitZ
            // World to shin: rotate by +θ about y.
            let specificForceShin = specificForceWorld.rotated(by: Vector3.unitY * angle)
            let rateShin = Vector3.unitY * (-rate * 180 / Double.pi)
            var gyro =
                rateShin.rotated(by: mounting).scaled(by: gyroScale) + gyroBias + rng.gaussianVector(sigma: gyroNoise)
            gyro = Vector3(clip(gyro.x), clip(gyro.y), clip(gyro.z))
            // The first sample's noise as it is, each later one an AR(1) step: the same variance.
            let draw = rng.gaussianVector(sigma: accelerationNoise)
            accelerationError =
                i == 0 ? draw : accelerationError * correlation + draw * (1 - correlation * correlation).squareRoot()
            samples.append(
                InertialSample(
                    time: time, acceleration: specificForceShin.rotated(by: mounting) + accelerationError,
                    rotationRate: gyro))
        }
        return samples
    }

    /// The true gravity direction (sensor frame) at `time`.
    func trueGravity(at time: Double) -> Vector3 {
        let angle = motion.state(at: time).angle
        return Vector3(sin(angle), 0, cos(angle)).rotated(by: mounting)
    }

    private func clip(_ value: Double) -> Double { max(-gyroFullScale, min(gyroFullScale, value)) }
}

/// Runs a session over `samples` and stops it after the last one if it did not end by itself.
func measure(
    _ samples: [InertialSample], parameters: SessionParameters = SessionParameters(),
    mounting: Mounting? = nil
) -> MeasurementSession {
    var session = MeasurementSession(parameters: parameters, calibration: mounting.map { Calibration(mounting: $0) })
    for sample in samples where !session.isFinished { session.update(sample) }
    session.stop()
    return session
}
