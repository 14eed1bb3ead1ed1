/// The tuning of ``GravityFilter`` and its ``RestDetector``.
///
/// The defaults are chosen from the physics of the task and from published peer filters, not fitted to
/// any data set: x-io Fusion (rest after 3 s below 3 °/s), VQF (rest after 1.5 s with gyro deviation
/// below 2 °/s and accelerometer deviation below 0.5 m/s²; accelerometer time constant 3 s) and
/// RTIMULib (bias learnt only while the gyro is below 0.2 rad/s and the accelerometer changes by less
/// than 0.05 g).
public struct FusionParameters: Hashable, Sendable, Codable {
    /// Time constant of the pull of the gravity estimate toward the accelerometer, in seconds.
    ///
    /// The estimate is a first-order low-pass of the accelerometer in an inertial frame, so a linear
    /// acceleration contributes roughly its double integral (the displacement) divided by τ². A sensor
    /// 0.3 m below the knee moves about 0.4 m during a 90° extension: at τ = 2 s that is about
    /// 0.01 g, 0.6° of tilt; at τ = 1 s four times more. Longer τ leaves gyro errors (bias, scale)
    /// uncorrected for longer. VQF uses 3 s; plain complementary filters on BROAD did best at 1–2 s.
    public var accelerometerTimeConstant: Double = 2

    /// Time constant (seconds) of the pull toward the accelerometer while the sensor is at rest. At
    /// rest the accelerometer reads gravity alone, so the estimate can follow it faster and shed the
    /// gyro errors a motion left; 0.5 s still averages about a hundred samples (≈ 0.02° of noise).
    public var restAccelerometerTimeConstant: Double = 0.5

    /// Accelerometer samples whose magnitude differs from 1 g by more than this (in g) are not used
    /// for the correction: they carry mostly linear acceleration. 0.1 g is about 6° of worst-case
    /// tilt error; a slow knee extension stays well inside it, a kick or a bump does not.
    public var accelerationRejectionThreshold: Double = 0.1

    /// Low-pass time constant (seconds) of the reference the rest detector compares each sample
    /// against. VQF uses 0.5 s: long enough to average sensor noise, short enough to follow posture.
    public var restFilterTimeConstant: Double = 0.5

    /// Largest deviation of the gyro from its low-passed value still counted as rest, in °/s.
    /// VQF 2 °/s, Fusion 3 °/s (absolute). The MPU-6050's gyro noise is 0.05 °/s rms, a resting leg's
    /// tremor well under 1 °/s.
    public var restGyroThreshold: Double = 2

    /// Largest deviation of the accelerometer from its low-passed value still counted as rest, in g.
    /// VQF 0.5 m/s² (0.05 g), RTIMULib 0.05 g. MPU-6050 accelerometer noise is about 3 mg rms.
    public var restAccelerationThreshold: Double = 0.05

    /// How long (seconds) both deviations must stay under their thresholds before the sensor counts as
    /// at rest. VQF 1.5 s, Fusion 3 s; 1.5 s keeps the still phases the patient is asked for short.
    public var restMinimumDuration: Double = 1.5

    /// Time constant (seconds) of the gyro bias low-pass while at rest. The first rest period averages
    /// every rest sample so far (an expanding window) until it reaches this length; after that the bias
    /// follows temperature drift (datasheet: up to ~0.16 °/s per °C) with this lag. Fusion tracks its
    /// offset with a 0.02 Hz high-pass (τ ≈ 8 s); RTIMULib switches from fast to slow learning.
    public var biasTimeConstant: Double = 5

    /// Largest gyro bias (°/s) the rest detector may learn at its first rest. The MPU-6050 zero-rate output is within
    /// ±20 °/s at 25 °C and moves up to ±20 °/s more over temperature; a "rest" needing more than this
    /// is a slow steady rotation, not a bias.
    public var maximumBias: Double = 40

    public init() {}
}
