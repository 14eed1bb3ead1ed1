/// The tuning of ``OrientationFilter``, its ``RestDetector`` and its gyro bias estimate.
///
/// Every value is a physical quantity in seconds, degrees per second or g, chosen from the physics of
/// the sensor and the motion and from the published filter this one follows (Laidig & Seel, "VQF:
/// Highly accurate IMU orientation estimation with bias estimation and magnetic disturbance
/// rejection", Information Fusion 2023). One, ``biasMotionForgettingTime``, was then chosen among
/// physically sensible values by its score on the BROAD benchmark, as its comment says; no other is
/// fitted to any data set.
public struct FusionParameters: Hashable, Sendable, Codable {
    /// Time constant (seconds) of the low-pass applied to the accelerometer in the almost-inertial
    /// frame, which sets how fast the inclination follows the accelerometer.
    ///
    /// In an inertial frame a linear acceleration averages to zero over any movement that starts and
    /// ends at rest (its integral is the change of velocity), so the low-pass removes it while gravity
    /// stays. The longer τ, the less a movement's acceleration tilts the estimate and the longer gyro
    /// errors last. A knee extension takes 1–3 s: 3 s (the published value) averages one out.
    public var accelerometerTimeConstant: Double = 3

    /// Low-pass time constant (seconds) of the reference the rest detector compares each sample with,
    /// and of the gyro average taken as the bias at rest. Long enough to average sensor noise, short
    /// enough to follow posture.
    public var restFilterTimeConstant: Double = 0.5

    /// Largest deviation of the gyro from its low-passed value still counted as rest, °/s. The
    /// MPU-6050's gyro noise is 0.05 °/s rms; a resting leg's tremor, 1 °/s rms or less, peaks beyond
    /// it and is told apart by ``restTremorTimeConstant``.
    public var restGyroThreshold: Double = 2

    /// Largest deviation of the accelerometer from its low-passed value still counted as rest, g
    /// (0.5 m/s²). The MPU-6050's accelerometer noise is about 3 mg rms.
    public var restAccelerationThreshold: Double = 0.05

    /// How long (seconds) both deviations must stay under their thresholds before the sensor counts as
    /// at rest: longer than a pause at the turn of a movement, short enough for the still phases the
    /// patient is asked for.
    public var restMinimumDuration: Double = 1.5

    /// Time constant (seconds) of the low-pass over which a peak beyond the rest thresholds is a
    /// tremor's (see ``RestDetector``): a first-order low-pass over 0.05 s passes 47 % of a 6 Hz
    /// tremor and 37 % of an 8 Hz one, so a tremor of 1 °/s rms (peaks of 3 °/s) stays near 1 °/s,
    /// while a steady deviation of 3 °/s, the slowest a movement leaves the threshold at, crosses
    /// 2 °/s within 0.055 s.
    public var restTremorTimeConstant: Double = 0.05

    /// How many times the rest thresholds a tremor's peak may reach: 6 °/s is six standard deviations
    /// of a tremor of 1 °/s rms, and a knee extension, tens of °/s within 0.1–0.2 s, passes it within
    /// a few hundredths of a second of passing 2 °/s.
    public var restTremorPeakFactor: Double = 3

    /// Standard deviation (°/s) of the gyro bias before anything is known of it but a calibration: the
    /// temperature drift a calibration leaves (datasheet: up to about 0.16 °/s per °C).
    public var biasSigmaInitial: Double = 0.5

    /// Seconds over which an unobserved bias estimate loses its certainty: its variance grows by
    /// (0.1 °/s)² in this time, as the bias drifts with temperature. Shorter forgets faster and lets
    /// noise in.
    public var biasForgettingTime: Double = 100

    /// Seconds over which the bias estimate loses the same certainty while the sensor moves.
    ///
    /// In motion the gyro errs by more than its zero-rate bias: its scale and cross-axis errors, its
    /// sensitivity to acceleration and its warming add an error that follows the motion. On BROAD's
    /// fast rotations the gyro's error against the optical reference, averaged over 2 s, swings by up
    /// to 1 °/s around the bias its rests read (trial 08, turning at 150–600 °/s). The correction
    /// toward the accelerometer alone leaves such an error as a tilt of about the error times τ, so
    /// while the sensor keeps moving the estimate is let loose a hundred times faster: its variance
    /// grows to ``biasSigmaInitial`` in 25 s, and it follows what lasts tens of seconds. A knee
    /// movement of 1–3 s between two rests lets it grow to 0.1–0.17 °/s only, so the correction the
    /// movement's accelerations cause moves the bias little, and the next rest measures the zero-rate
    /// bias again. The value was chosen with BROAD in view (README, "Real IMU data"): 4 s and 0.25 s
    /// score 0.705° and 0.689° there, and shorter times cost the knee sessions accuracy.
    public var biasMotionForgettingTime: Double = 1

    /// Standard deviation (°/s) the bias estimate settles at while it is corrected from the motion
    /// (the accelerometer's inclination disagreeing with the integrated gyro).
    public var biasSigmaMotion: Double = 0.1

    /// Standard deviation (°/s) the bias estimate settles at while it is measured at rest, where the
    /// averaged gyro reads the bias alone.
    public var biasSigmaRest: Double = 0.03

    /// How much weaker than the horizontal ones the pull of the bias's vertical component toward zero
    /// is: rotation about the vertical does not change the inclination, so the motion says nothing of
    /// it, and a weak pull keeps it from wandering.
    public var biasVerticalForgettingFactor: Double = 0.0001

    /// Largest single correction of a known bias, °/s. A disagreement beyond it is motion the
    /// accelerometer misread (a knock, a centripetal acceleration), not drift.
    public var biasCorrectionClip: Double = 2

    /// Largest gyro bias (°/s) the filter may learn. The MPU-6050 zero-rate output is within ±20 °/s at
    /// 25 °C and moves up to ±20 °/s more over temperature.
    public var maximumBias: Double = 40

    public init() {}
}
