/// The rules of a ``MeasurementSession``: when the motion has begun, when the leg is back, when to
/// give up, and which results to flag.
public struct SessionParameters: Hashable, Sendable, Codable {
    /// What the patient is guided through: the extension alone (the session ends at the first
    /// return), or the full arc (it ends at the return from the flexion).
    public var measurementProtocol: MeasurementProtocol = .extension

    /// Tilt from the start pose (degrees) that counts as the motion having begun. Well above tremor
    /// and strap wobble (a few degrees), well below any useful extension.
    public var motionThreshold: Double = 10

    /// Tilt from the start pose (degrees) within which the leg counts as back. Patients rarely put the
    /// foot back exactly where it was; 15° still tells "back down" from "held up".
    public var returnTolerance: Double = 15

    /// Seconds the leg may stay back near the start pose without coming to rest before the session
    /// ends anyway, flagged unsteady: longer than the rest detector needs (1.5 s) plus a patient's
    /// settling, short enough that a restless thigh does not hold the session until the time-out.
    public var settleTimeout: Double = 5

    /// Shortest time (seconds) the bias-corrected gyro must stay under the rest threshold for the
    /// accelerometer to be taken as the inclination (see `RestAnchoredAngles`): a held pose, not
    /// the instant a movement turns, which lasts milliseconds.
    public var stillAnchorSeconds: Double = 0.3

    /// How far (°/s) a gyro's bias may move during the session, from what it was first known to be
    /// to what the session learnt, before the session is fused again with the learnt one. A part
    /// calibrated at 25 °C drifts by up to 0.16 °/s per °C (datasheet), so one measured 10 °C
    /// warmer starts 1–2 °/s off; the filter learns the difference at the rests, but the samples
    /// before it did were fused with the stale bias, and where the leg was not yet still a second
    /// time (between the start pose and the first still phase) nothing anchors them: 1.5° at
    /// 0.6 °/s over 2.5 s. A bias that moved by 0.2 °/s costs a few tenths of a degree there, what
    /// a calibrated result may be off by.
    public var biasChangeToFuseAgain: Double = 0.2

    /// Largest change of inclination (degrees) within one rest (a still phase near the start pose,
    /// by the accelerometer; or anything the rest detector called rest there, by the gyro, see
    /// ``RestSway``) before the result is flagged unsteady. A still leg's averaged accelerometer
    /// moves by hundredths of a degree and a resting leg's tremor stays well under half a degree; a
    /// thigh rocking or drifting by a degree or more turns the shank by more and leaves the start or
    /// finish uncertain.
    public var maximumStillWander: Double = 0.75

    /// Largest turn (°/s) of the inclination within one rest before the result is flagged unsteady.
    /// A thigh that slides or sways under the hanging leg turns the shank below the rest detector's
    /// 2 °/s, and the knee angles, which take the thigh as still, then carry its turn. At 0.3 °/s a
    /// session of about 10 s moves the shank by 3°, the standard error of the goniometer this device
    /// stands in for, and a rest of 2.5 s by the 0.75° that
    /// ``maximumStillWander`` allows; a patient sitting almost still (the thigh swaying ±0.3° over
    /// 8 s, at most 0.24 °/s) stays below it.
    public var maximumStillTurnRate: Double = 0.3

    /// Seconds after the first sample at which the session ends regardless. ResearchKit's step has
    /// no limit; a headless device must not wait forever for a patient who walked away.
    public var timeout: Double = 60

    /// Sessions shorter than this (seconds) are flagged too short: a still start (1.5 s), an extension
    /// and a return cannot fit in less.
    public var minimumDuration: Double = 3

    /// Gyro magnitude on any axis (°/s) at or above which the sample counts as saturated: 98 % of the
    /// ±500 °/s full scale the driver configures, since a clipped axis reads at most full scale.
    public var gyroSaturationThreshold: Double = 490

    /// The plausible interval of seated shank inclination (degrees): from the foot tucked under the
    /// chair to a fully extended knee with the thigh raised. Outside it the mounting or the fusion
    /// has failed.
    public var plausibleMinimum: Double = -60
    public var plausibleMaximum: Double = 135

    /// Largest difference (degrees) between the inclinations of the session's rests (the start, the
    /// rest between the arc's two steps, the finish) before the result is flagged not seated. A
    /// still thigh under a foot put back where it was gives the same inclination to a degree or
    /// two; more means the thigh moved between them, or the foot came back elsewhere, and the
    /// knee angles, which assume a horizontal, still thigh, are uncertain.
    public var maximumRestDisagreement: Double = 5

    /// Largest inclination (degrees, either way) of the start pose, with a known mounting, before
    /// the result is flagged not seated: the knee angles take the start as a shin hanging under a
    /// horizontal thigh, and a patient sitting on a chair's edge starts within a few degrees of it.
    public var maximumStartInclination: Double = 20

    /// Largest fraction of the rotation (perpendicular to the shin) not about the estimated hinge for a
    /// plausible knee motion. A hinge motion is near 0; rotation spread evenly over the plane is 0.5.
    public var maximumOffHingeFraction: Double = 0.3

    /// Sample rate (Hz) the per-sample buffer is reserved for, so a session up to the time-out at this
    /// rate never allocates while sampling.
    public var reservedSampleRate: Double = 200

    public init() {}

    /// The default rules for `measurementProtocol`.
    public init(measurementProtocol: MeasurementProtocol) {
        self.measurementProtocol = measurementProtocol
    }
}
