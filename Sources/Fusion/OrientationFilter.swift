/// A 6-D orientation filter (gyroscope and accelerometer) with gyro bias estimation, after the
/// algorithm of Laidig & Seel, "VQF: Highly accurate IMU orientation estimation with bias estimation
/// and magnetic disturbance rejection" (Information Fusion 2023), without the magnetometer.
///
/// Three parts:
/// - **Strapdown integration.** The bias-corrected gyro is integrated into the orientation of the
///   sensor in an *almost-inertial* frame, which drifts only as slowly as the gyro's errors.
/// - **Inclination correction.** Each accelerometer sample is rotated into that frame and low-passed
///   there (``FusionParameters/accelerometerTimeConstant``). In an inertial frame a movement's linear
///   acceleration averages out and gravity stays, so no sample needs to be rejected as "too far from
///   1 g": a kick or the swing of the leg is filtered, not gated. A rotation about a horizontal axis
///   then turns the low-passed acceleration onto the vertical; it is the only correction the
///   inclination gets, and it leaves the heading alone.
/// - **Gyro bias estimation**, a Kalman filter on the three bias components. At rest the averaged gyro
///   measures the bias directly. In motion the inclination correction itself is the measurement: a
///   bias makes the integrated orientation turn away from the accelerometer's at a rate equal to the
///   bias seen in the earth frame, and the correction turns it back at that rate. The rotation and
///   the bias are low-passed like the accelerometer, so that measurement and model share its delay.
///
/// The outputs are ``gravity``, the direction away from the earth in the sensor frame, and
/// ``orientation``, whose heading is the gyro's alone. The filter works at any sample rate and takes
/// each sample's interval from its time stamp; it allocates nothing per sample.
public struct OrientationFilter: Sendable {
    public let parameters: FusionParameters
    public private(set) var restDetector: RestDetector
    /// The gyro bias in °/s, subtracted from every gyro sample.
    public private(set) var gyroBias: Vector3
    /// Whether the bias is known well enough to be corrected gradually: from the start when given,
    /// otherwise from the first rest on.
    public private(set) var isBiasKnown: Bool
    /// Whether a sample has set the inclination.
    public private(set) var isInitialised = false

    /// Sensor frame → almost-inertial frame.
    private var gyroOrientation = Quaternion.identity
    /// Almost-inertial frame → earth frame; a pure inclination correction.
    private var inclinationCorrection = Quaternion.identity
    private var accelerationLowPass = LowPassFilter<Vector3>()
    private var rotationLowPass = LowPassFilter<Matrix3>()
    private var rotatedBiasLowPass = LowPassFilter<Vector3>()
    private var biasCovariance: Matrix3
    private var coefficients: LowPassCoefficients?
    private var noise: BiasNoise?
    private var previousTime: Double?

    /// - Parameters:
    ///   - parameters: the tuning.
    ///   - gyroBias: a bias known in advance (°/s), e.g. zero after a calibration has been applied to
    ///     the samples; `nil` when nothing is known, as for a sensor never calibrated: the filter then
    ///     measures the bias at the first rest and takes its inclination afresh from there.
    public init(parameters: FusionParameters = FusionParameters(), gyroBias: Vector3? = nil) {
        self.parameters = parameters
        self.restDetector = RestDetector(parameters: parameters)
        self.gyroBias = gyroBias ?? .zero
        self.isBiasKnown = gyroBias != nil
        let sigma = parameters.biasSigmaInitial
        self.biasCovariance = Matrix3(diagonal: sigma * sigma)
    }

    /// Sensor frame → earth frame (z up). The heading is the integrated gyro's, arbitrary.
    public var orientation: Quaternion { inclinationCorrection * gyroOrientation }

    /// The unit direction away from the earth in the sensor frame: what an accelerometer at rest
    /// reads, normalised (+z when the board lies flat, component side up).
    public var gravity: Vector3 { orientation.verticalInSensorFrame }

    /// Whether the sensor is at rest: the ``RestDetector`` says so and, once the bias is known, the
    /// averaged gyro agrees with it. Bias drifts slowly; a steady turn about the vertical (a swivel
    /// chair) leaves the accelerometer unchanged and would read as a new bias, but not as this one.
    public var isAtRest: Bool {
        guard restDetector.isAtRest else { return false }
        guard isBiasKnown else { return true }
        let limit = parameters.restGyroThreshold
        return (restDetector.referenceRotationRate - gyroBias).lengthSquared <= limit * limit
    }

    /// The standard deviation of the bias estimate per axis, °/s.
    public var gyroBiasSigma: Vector3 {
        let d = biasCovariance.diagonal
        return Vector3(d.x.squareRoot(), d.y.squareRoot(), d.z.squareRoot())
    }

    /// Feeds one sample. Its interval is the difference to the previous sample's time; a sample whose
    /// time does not advance sets the inclination if none is set yet, and is otherwise skipped.
    public mutating func update(_ sample: InertialSample) {
        let interval = previousTime.map { sample.time - $0 } ?? 0
        previousTime = sample.time
        update(acceleration: sample.acceleration, rotationRate: sample.rotationRate, interval: interval)
    }

    /// Feeds one sample with an explicit interval.
    /// - Parameters:
    ///   - acceleration: accelerometer in g.
    ///   - rotationRate: raw gyro in °/s (the filter subtracts its bias).
    ///   - interval: seconds since the previous sample.
    public mutating func update(acceleration: Vector3, rotationRate: Vector3, interval: Double) {
        restDetector.update(rotationRate: rotationRate, acceleration: acceleration, interval: max(0, interval))
        guard interval > 0 else {
            if !isInitialised, let up = acceleration.normalized {
                inclinationCorrection = .levelling(up)
                isInitialised = true
            }
            return
        }
        let c = LowPassCoefficients.cached(&coefficients, timeConstant: parameters.accelerometerTimeConstant,
                                           interval: interval)
        let turn = (rotationRate - gyroBias) * (interval * Double.pi / 180)
        gyroOrientation = (gyroOrientation * Quaternion(rotationVector: turn)).normalized

        let inertial = accelerationLowPass.update(gyroOrientation.rotate(acceleration), c)
        guard let earth = inclinationCorrection.rotate(inertial).normalized else { return }
        let levelling = Quaternion.levelling(earth)
        inclinationCorrection = (levelling * inclinationCorrection).normalized
        isInitialised = true
        estimateBias(levelling: levelling, interval: interval, c)
    }

    private mutating func estimateBias(levelling: Quaternion, interval: Double, _ c: LowPassCoefficients) {
        let noise = BiasNoise.cached(&noise, parameters: parameters, interval: interval)
        let rotation = orientation.matrix
        let filteredRotation = rotationLowPass.update(rotation, c)
        let filteredRotatedBias = rotatedBiasLowPass.update(rotation * gyroBias, c)

        // The bias drifts: its uncertainty grows until a measurement shrinks it again, up to the
        // initial uncertainty.
        var p = biasCovariance
        if p.row0.x < noise.initialVariance { p.row0.x += noise.processVariance }
        if p.row1.y < noise.initialVariance { p.row1.y += noise.processVariance }
        if p.row2.z < noise.initialVariance { p.row2.z += noise.processVariance }
        biasCovariance = p

        if isAtRest {
            guard isBiasKnown else { return establishBiasAtRest(c) }
            // H = I: the averaged gyro reads the bias.
            let innovation = restDetector.referenceRotationRate - gyroBias
            correctBias(innovation: innovation, measurement: .identity,
                        noise: Vector3(noise.restVariance, noise.restVariance, noise.restVariance))
        } else {
            // The per-sample correction's rotation vector is 2·(x, y, 0) for these small turns; as a
            // rate it is what the integrated gyro turned too much, in the earth frame.
            let correctionRate = Vector3(levelling.x, levelling.y, 0) * (2 * 180 / Double.pi / interval)
            let predicted = filteredRotation * gyroBias
            let innovation = Vector3(filteredRotatedBias.x - correctionRate.x - predicted.x,
                                     filteredRotatedBias.y - correctionRate.y - predicted.y,
                                     -predicted.z)
            correctBias(innovation: innovation, measurement: filteredRotation,
                        noise: Vector3(noise.motionVariance, noise.motionVariance, noise.verticalVariance))
        }
    }

    /// The Kalman update of the bias with measurement matrix `h` and diagonal measurement variances.
    private mutating func correctBias(innovation: Vector3, measurement h: Matrix3, noise: Vector3) {
        let p = biasCovariance
        let ph = p * h.transposed
        var s = h * ph
        s.row0.x += noise.x
        s.row1.y += noise.y
        s.row2.z += noise.z
        guard let sInverse = s.inverse else { return }
        let gain = ph * sInverse
        let clip = parameters.biasCorrectionClip
        let clipped = Vector3(min(max(innovation.x, -clip), clip), min(max(innovation.y, -clip), clip),
                              min(max(innovation.z, -clip), clip))
        gyroBias = limited(gyroBias + gain * clipped)
        biasCovariance = p - gain * (h * p)
    }

    /// The first rest of a sensor whose bias was unknown: the averaged gyro is the bias, and the
    /// inclination integrated so far with the wrong bias is replaced by the rest's accelerometer.
    private mutating func establishBiasAtRest(_ c: LowPassCoefficients) {
        gyroBias = limited(restDetector.referenceRotationRate)
        let sigma = parameters.biasSigmaRest
        biasCovariance = Matrix3(diagonal: sigma * sigma)
        isBiasKnown = true
        guard let up = restDetector.referenceAcceleration.normalized else { return }
        gyroOrientation = .identity
        inclinationCorrection = .levelling(up)
        accelerationLowPass.reset(to: restDetector.referenceAcceleration, c)
        let rotation = orientation.matrix
        rotationLowPass.reset(to: rotation, c)
        rotatedBiasLowPass.reset(to: rotation * gyroBias, c)
    }

    private func limited(_ bias: Vector3) -> Vector3 {
        let m = parameters.maximumBias
        return Vector3(min(max(bias.x, -m), m), min(max(bias.y, -m), m), min(max(bias.z, -m), m))
    }
}

/// The bias filter's variances for one sample interval, (°/s)².
struct BiasNoise: Sendable {
    var interval: Double
    var initialVariance: Double
    /// Growth of the variance per sample: (0.1 °/s)² over the forgetting time.
    var processVariance: Double
    var motionVariance: Double
    var verticalVariance: Double
    var restVariance: Double

    init(parameters: FusionParameters, interval: Double) {
        self.interval = interval
        initialVariance = parameters.biasSigmaInitial * parameters.biasSigmaInitial
        let process = 0.01 * interval / parameters.biasForgettingTime
        processVariance = process
        // A measurement variance w under process noise v settles the estimate's variance at p where
        // p = (p + v) w / (p + v + w), so w = p² / v + p: the variances are chosen from the
        // uncertainty each kind of measurement should settle at.
        func settling(at sigma: Double) -> Double {
            let p = sigma * sigma
            return p * p / process + p
        }
        let motion = settling(at: parameters.biasSigmaMotion)
        motionVariance = motion
        verticalVariance = motion / max(parameters.biasVerticalForgettingFactor, 1e-10)
        restVariance = settling(at: parameters.biasSigmaRest)
    }

    static func cached(_ cache: inout BiasNoise?, parameters: FusionParameters, interval: Double) -> BiasNoise {
        if let noise = cache, abs(noise.interval - interval) <= 0.01 * noise.interval { return noise }
        let noise = BiasNoise(parameters: parameters, interval: interval)
        cache = noise
        return noise
    }
}
