/// The accelerations a sensor strapped away from the knee's axis feels as the shank turns, and how
/// they tilt its accelerometer's sagittal angle.
///
/// At a position p from the hinge axis h (in the sagittal plane), turning at ω with angular
/// acceleration α, the sensor is accelerated by α (h × p) − ω² p: tangentially and toward the
/// axis, tens of mg in a brisk movement at 10–20 cm. The accelerometer reads that besides
/// gravity, so its angle leans by the acceleration's component across gravity. p is unknown but
/// fixed, and near a guess of it the lean is linear in it: its coefficients here, and p is fitted
/// with whatever else the samples show, then again about that fit.
enum LeverArm {
    /// Spread of each component of the sensor's position from the knee's axis, metres: it is
    /// strapped on the shin, within a shank's length of the knee.
    static let positionSigma = 0.3
    /// A typical distance of the sensor from the knee's axis, metres, for the model's own noise.
    static let typicalDistance = 0.15
    /// The share of the lever arm's lean that its model may miss: α is a difference of noisy
    /// rates, and a knee is not quite a hinge.
    static let modelShare = 0.1
    /// Noise of one sample's accelerometer angle during a movement, degrees: the MPU-6050's noise at
    /// the 44 Hz low-pass, about 3.5 mg.
    static let angleSigma = 0.25
    /// Seconds over which the moving samples' errors are one: what the model misses (the rate's
    /// derivative, a hinge axis a degree off, skin moving over the muscle) changes with the
    /// movement, not from one sample to the next, so the samples of a tenth of a second count as
    /// one observation rather than twenty at 200 Hz. Counted as independent, a movement's hundreds of
    /// samples would outweigh the still phases with a pattern they share.
    static let correlationSeconds = 0.1

    /// How many samples `period` seconds apart count as one observation (at least 1).
    static func correlatedSamples(period: Double) -> Double {
        period > 0 ? max(1, correlationSeconds / period) : 1
    }

    /// m/s² per g: the accelerometer reads in g.
    static let standardGravity = 9.80665

    /// The acceleration (g) of a sensor at `shin` and `forward` metres from the knee's axis along
    /// the mounting's shin and forward axes, turning about the hinge at `rate` (rad/s) with
    /// `angularAcceleration` (rad/s²): α (h × p) − ω² p.
    static func acceleration(
        shin: Double, forward: Double, rate: Double, angularAcceleration: Double, mounting: Mounting
    ) -> Vector3 {
        let position = mounting.shinAxis * shin + mounting.forwardAxis * forward
        return (mounting.hingeAxis.cross(position) * angularAcceleration - position * (rate * rate))
            * (1 / standardGravity)
    }

    /// The lean (degrees of the sagittal angle per metre of the position along the shin axis and
    /// along the forward axis) of an accelerometer reading near `gravity` (g) while the shank turns
    /// at `rate` (rad/s) with `angularAcceleration` (rad/s²), with the variance (degrees²) of the
    /// angle it is taken from; `nil` when `gravity` lies mostly off the sagittal plane or is nearly
    /// nil (a leg in free fall), where the angle has no footing.
    static func lean(
        at gravity: Vector3, rate: Double, angularAcceleration: Double, mounting: Mounting
    ) -> (shin: Double, forward: Double, variance: Double)? {
        let shin = mounting.shinAxis, forward = mounting.forwardAxis
        let along = gravity.dot(shin), ahead = gravity.dot(forward)
        let planar = along * along + ahead * ahead
        guard planar > 0.25 else { return nil }
        // The angle atan2(a·forward, a·shin)'s gradient with respect to a, degrees per g.
        let gradient = (forward * along - shin * ahead) * (180 / (Double.pi * planar))
        func lean(_ shin: Double, _ forward: Double) -> Double {
            acceleration(
                shin: shin, forward: forward, rate: rate, angularAcceleration: angularAcceleration, mounting: mounting
            ).dot(gradient)
        }
        let alongShin = lean(1, 0), alongForward = lean(0, 1)
        let model = modelShare * typicalDistance
        let variance =
            angleSigma * angleSigma + model * model * (alongShin * alongShin + alongForward * alongForward)
        return (alongShin, alongForward, variance)
    }
}
