import Fusion
import Sensor

#if canImport(Glibc)
import Glibc
#endif

/// Synthetic samples of two sensors on one leg in the sagittal plane: one on the shin, as
/// ``SyntheticIMU``'s, and one on top of the thigh, the thigh pitching about the hip.
///
/// `knee` is the shank's inclination from the thigh's perpendicular (the knee flexion is 90° minus
/// it: with a level thigh it is the shank's inclination from vertical), `thigh` the thigh's pitch
/// (0 level, positive raising the knee). The shank's inclination in the room is their sum. Thigh
/// frame: x along the thigh toward the knee, y lateral, z out of the thigh's top; the shank frame
/// is ``SyntheticIMU``'s, so that with the knee at a right angle the two frames coincide, and with
/// equal `mounting`s the boards are strapped alike.
struct SyntheticLeg {
    var knee: KneeMotion
    var thigh: KneeMotion
    var shankMounting = Vector3.zero
    var thighMounting = Vector3.zero
    var sampleRate = 200.0
    var thighLength = 0.45
    /// Along the shank from the knee to its sensor, and along the thigh from the hip to its own, m.
    var shankLeverArm = 0.3
    var thighLeverArm = 0.25
    var gyroNoise = 0.05
    var accelerationNoise = 0.003
    /// Each gyro's zero-rate output, °/s.
    var gyroBiases = (shank: Vector3.zero, thigh: Vector3.zero)
    var seed: UInt64 = 1

    var duration: Double { max(knee.duration, thigh.duration) }

    /// The shank sensor's true mounting.
    var trueMounting: Mounting {
        Mounting(
            shinAxis: Vector3.unitZ.rotated(by: shankMounting), hingeAxis: (-Vector3.unitY).rotated(by: shankMounting))!
    }

    /// The knee's axis, oriented so that extension is positive, in both sensors' frames.
    var trueHingeAxes: HingeAxes {
        HingeAxes(
            thigh: (-Vector3.unitY).rotated(by: thighMounting), shank: (-Vector3.unitY).rotated(by: shankMounting))
    }

    /// The true knee flexion at `time`, degrees.
    func kneeFlexion(at time: Double) -> Double {
        KneeAngle.flexion(shankInclination: knee.state(at: time).angle * 180 / Double.pi)
    }

    /// The true knee flexion over the samples up to `end`: its smallest and largest.
    func kneeFlexionExtremes(until end: Double) -> (extension: Double, flexion: Double) {
        let flexions = stride(from: 0.0, through: end, by: 1 / sampleRate).map(kneeFlexion(at:))
        return (flexions.min() ?? .nan, flexions.max() ?? .nan)
    }

    func samples(until end: Double? = nil) -> [(shank: InertialSample, thigh: InertialSample)] {
        var rng = SplitMix64(seed: seed)
        let count = Int(((end ?? duration) * sampleRate).rounded()) + 1
        return (0..<count).map { i in
            let time = Double(i) / sampleRate
            let k = knee.state(at: time), phi = thigh.state(at: time)
            // The shank's inclination in the room, its rate and angular acceleration (radians).
            let theta = k.angle + phi.angle, rate = k.rate + phi.rate, acceleration = k.acceleration + phi.acceleration
            // Positions: the knee at L(cos φ, 0, sin φ) from the hip, the thigh's sensor at d(cos φ,
            // 0, sin φ), the shank's at r(sin θ, 0, −cos θ) from the knee; their second derivatives.
            func alongThigh(_ length: Double) -> Vector3 {
                let c = cos(phi.angle), s = sin(phi.angle)
                let x: Double = -s * phi.acceleration - c * phi.rate * phi.rate
                let z: Double = c * phi.acceleration - s * phi.rate * phi.rate
                return Vector3(x, 0, z) * length
            }
            let c = cos(theta), s = sin(theta)
            let shankX: Double = c * acceleration - s * rate * rate
            let shankZ: Double = s * acceleration + c * rate * rate
            let shankLinear = alongThigh(thighLength) + Vector3(shankX, 0, shankZ) * shankLeverArm
            let thighLinear = alongThigh(thighLeverArm)
            func reading(
                linear: Vector3, angle: Double, rate: Double, mounting: Vector3, bias: Vector3
            ) -> InertialSample {
                let force = (linear / 9.80665 + .unitZ).rotated(by: Vector3.unitY * angle)
                let gyro = Vector3.unitY * (-rate * 180 / Double.pi)
                return InertialSample(
                    time: time,
                    acceleration: force.rotated(by: mounting) + rng.gaussianVector(sigma: accelerationNoise),
                    rotationRate: gyro.rotated(by: mounting) + bias + rng.gaussianVector(sigma: gyroNoise))
            }
            let shank = reading(
                linear: shankLinear, angle: theta, rate: rate, mounting: shankMounting, bias: gyroBiases.shank)
            let thigh = reading(
                linear: thighLinear, angle: phi.angle, rate: phi.rate, mounting: thighMounting, bias: gyroBiases.thigh)
            return (shank, thigh)
        }
    }
}

/// Runs a session over pairs of samples and stops it after the last one if it did not end by itself.
func measure(
    _ pairs: [(shank: InertialSample, thigh: InertialSample)], parameters: SessionParameters = SessionParameters(),
    calibration: Calibration? = nil
) -> MeasurementSession {
    var session = MeasurementSession(parameters: parameters, calibration: calibration)
    for pair in pairs where !session.isFinished { session.update(pair.shank, thigh: pair.thigh) }
    session.stop()
    return session
}
