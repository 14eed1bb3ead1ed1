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
    private var biasCoefficients: LowPassCoefficients?
    private var noise: BiasNoise?
    /// Seconds since the inclination correction and the bias estimate were last updated.
    private var pendingTime = 0.0
    /// The last sample's angle increment (radians, sensor frame), for the coning correction.
    private var previousTurn = Vector3.zero
    /// The last sample's gyro, °/s, for ``GyroIntegration`` across lost samples.
    private var previousRotationRate: Vector3?
    /// The shortest interval between samples so far, seconds: the sensor's period, against which a
    /// gap of lost samples shows.
    private(set) var shortestInterval = Double.infinity
    /// The samples since the sensor became still: a slow turn that passes for rest shows in how the
    /// accelerometer's direction moves across them.
    private var stillRun = StillRun()
    /// The accelerometer in the almost-inertial frame, averaged since the sensor became still.
    private var stillLowPass = LowPassFilter<Vector3>()
    private var stillCoefficients: LowPassCoefficients?
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
        self.biasCovariance = Matrix3.identity * (sigma * sigma)
    }

    /// Sensor frame → earth frame (z up). The heading is the integrated gyro's, arbitrary.
    public var orientation: Quaternion {
        // The correction as of the last sample: the kept one, plus the turn of the low-passed
        // acceleration onto the vertical since it was made.
        let correction =
            Quaternion.levelling(inclinationCorrection.rotate(accelerationLowPass.value))
            .map { $0 * inclinationCorrection } ?? inclinationCorrection
        return correction * gyroOrientation
    }

    /// The unit direction away from the earth in the sensor frame: what an accelerometer at rest
    /// reads, normalised (+z when the board lies flat, component side up). Kept rather than computed,
    /// as a session reads it several times per sample.
    public private(set) var gravity = Vector3.unitZ

    /// Whether the sensor is at rest: the ``RestDetector`` says so and, once the bias is known, the
    /// averaged gyro agrees with it. Bias drifts slowly; a steady turn about the vertical (a swivel
    /// chair) leaves the accelerometer unchanged and would read as a new bias, but not as this one.
    public var isAtRest: Bool {
        guard restDetector.isAtRest else { return false }
        guard isBiasKnown else { return true }
        let limit = parameters.restGyroThreshold
        return (restDetector.referenceRotationRate - gyroBias).lengthSquared <= limit * limit
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
            if !isInitialised, let levelling = Quaternion.levelling(acceleration) {
                inclinationCorrection = levelling
                gravity = orientation.verticalInSensorFrame
                isInitialised = true
            }
            return
        }
        shortestInterval = min(shortestInterval, interval)
        // Samples were lost (a FIFO overflow, a dropped row) when the interval spans several of the
        // sensor's periods. The low-passes then step once per period over the gap, holding this
        // sample: a second-order filter whose coefficients change for one step is knocked out of
        // its state and rings for seconds after (tens of degrees after a gap of 0.15 s).
        let isGap = GyroIntegration.isGap(interval: interval, period: shortestInterval)
        let period = isGap ? shortestInterval : interval
        let steps = isGap ? max(1, Int((interval / period).rounded())) : 1
        let c = LowPassCoefficients.cached(&coefficients, interval: period) {
            LowPassCoefficients(timeConstant: parameters.accelerometerTimeConstant, interval: period)
        }
        let integrated = GyroIntegration.turn(
            rotationRate, previous: previousRotationRate, interval: interval, period: shortestInterval)
        let turn = (integrated - gyroBias * interval) * (Double.pi / 180)
        previousRotationRate = rotationRate
        // A gyro sample is the mean rate over the interval it ends, so `turn` is the interval's
        // angle increment. When the axis of rotation moves, successive increments do not commute,
        // and a rate that changes linearly across two intervals turns the sensor by the increment
        // plus (previous × current) / 12: the two-sample coning correction of strapdown inertial
        // navigation. Over a fast three-dimensional movement it is what the increment alone misses.
        // Renormalised with the bias estimate: a product of unit quaternions drifts from unit length
        // only by rounding, 1e-16 a sample.
        gyroOrientation = gyroOrientation * Quaternion(rotationVector: turn + previousTurn.cross(turn) * (1.0 / 12))
        previousTurn = turn

        let rotated = gyroOrientation.rotate(acceleration)
        // A tremor's peak that paused the run stays in its sums: a tremor averages to nothing only
        // with its peaks. Should the peak turn out to be a movement, the run is dropped whole.
        if restDetector.isStill || restDetector.isPaused {
            stillRun.add(rotationRate: rotationRate, acceleration: acceleration, interval: interval)
            let r = LowPassCoefficients.cached(&stillCoefficients, interval: period) {
                LowPassCoefficients(timeConstant: parameters.restFilterTimeConstant, interval: period)
            }
            for _ in 0..<steps { _ = stillLowPass.update(rotated, r) }
        } else {
            stillRun.removeAll()
            stillLowPass = LowPassFilter()
        }
        let inertial: Vector3
        if isAtRest && isBiasKnown {
            // At rest the accelerometer reads gravity alone: what the low-pass still remembers of the
            // last movement's accelerations and gyro errors is obsolete, so the inclination follows
            // the rest's own average instead of fading toward it over τ. The average is taken in the
            // almost-inertial frame, where gravity stays put even while the sensor turns slowly (a
            // thigh swaying under the rest thresholds); in the sensor frame it would lag the turn.
            inertial = stillLowPass.value
            accelerationLowPass.reset(to: inertial, c)
        } else {
            for _ in 1..<steps { _ = accelerationLowPass.update(rotated, c) }
            inertial = accelerationLowPass.update(rotated, c)
        }
        // The inclination correction turns the low-passed acceleration onto the vertical, so the
        // vertical seen from the sensor is that acceleration turned back by the gyro's orientation:
        // no correction needs to be made per sample for it. The correction itself is made with the
        // bias estimate, which needs it as a rotation.
        guard let up = gyroOrientation.inverseRotate(inertial).normalized else {
            // No direction to turn onto (a free fall's zero): the gyro alone carries the vertical.
            gravity = orientation.verticalInSensorFrame
            return
        }
        gravity = up
        isInitialised = true
        pendingTime += interval
        // Within half a sensor period of the interval: in floating point a sum of ten 5 ms intervals
        // falls on either side of 0.05 s, and the update would come after 10 or 11 samples by turns,
        // switching the bias low-passes' coefficients back and forth.
        if pendingTime >= Self.biasInterval - shortestInterval / 2 || (isAtRest && !isBiasKnown) {
            guard let levelling = Quaternion.levelling(inclinationCorrection.rotate(inertial)) else { return }
            inclinationCorrection = (levelling * inclinationCorrection).renormalized
            gyroOrientation = gyroOrientation.renormalized
            // The correction's rotation vector is 2·(x, y, 0) for these small turns.
            estimateBias(correction: Vector3(levelling.x, levelling.y, 0) * 2, interval: pendingTime, c)
            pendingTime = 0
        }
    }

    /// Seconds between two updates of the inclination correction and the bias estimate. The bias and
    /// everything it is estimated from change far slower than the samples arrive: the low-passes'
    /// cut-off (√2 / 2πτ, 0.075 Hz at τ = 3 s) is 130 times below the 10 Hz Nyquist frequency of 20
    /// updates a second, and the filter's cost at 200 Hz drops by half.
    static let biasInterval = 0.05

    /// One update of the bias estimate from the inclination correction (rotation vector, radians,
    /// earth frame) made over `interval` seconds.
    private mutating func estimateBias(correction: Vector3, interval: Double, _ c: LowPassCoefficients) {
        let noise = BiasNoise.cached(&noise, interval: interval) {
            BiasNoise(parameters: parameters, interval: interval)
        }
        let b = LowPassCoefficients.cached(&biasCoefficients, interval: interval) {
            LowPassCoefficients(timeConstant: parameters.accelerometerTimeConstant, interval: interval)
        }
        let rotation = (inclinationCorrection * gyroOrientation).matrix
        let filteredRotation = rotationLowPass.update(rotation, b)
        let filteredRotatedBias = rotatedBiasLowPass.update(rotation * gyroBias, b)

        // The bias drifts, and in motion the gyro's other errors add to it: its uncertainty grows
        // until a measurement shrinks it again, up to the initial uncertainty.
        let atRest = isAtRest
        let growth = atRest ? noise.processVariance : noise.motionProcessVariance
        var p = biasCovariance
        if p.row0.x < noise.initialVariance { p.row0.x += growth }
        if p.row1.y < noise.initialVariance { p.row1.y += growth }
        if p.row2.z < noise.initialVariance { p.row2.z += growth }
        biasCovariance = p

        let rest = atRest ? restBias : nil
        if let rest, !isBiasKnown { return establishBiasAtRest(bias: rest.bias, c, b) }
        if let rest, rest.isSteady {
            // H = I: the averaged gyro reads the bias.
            let innovation = rest.bias - gyroBias
            correctBias(
                innovation: innovation, measurement: .identity,
                noise: Vector3(noise.restVariance, noise.restVariance, noise.restVariance))
        } else {
            // As a rate, the correction is what the integrated gyro turned too much, in the earth frame.
            let correctionRate = correction * (180 / Double.pi / interval)
            let predicted = filteredRotation * gyroBias
            let innovation = Vector3(
                filteredRotatedBias.x - correctionRate.x - predicted.x,
                filteredRotatedBias.y - correctionRate.y - predicted.y,
                -predicted.z)
            correctBias(
                innovation: innovation, measurement: filteredRotation,
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
        let clipped = Vector3(
            min(max(innovation.x, -clip), clip), min(max(innovation.y, -clip), clip),
            min(max(innovation.z, -clip), clip))
        gyroBias = limited(gyroBias + gain * clipped)
        biasCovariance = p - gain * (h * p)
    }

    /// The first rest of a sensor whose bias was unknown: the rest's measurement (``restBias``) is
    /// the bias, and the inclination integrated so far with the wrong bias is replaced by the rest's
    /// accelerometer.
    private mutating func establishBiasAtRest(bias: Vector3, _ c: LowPassCoefficients, _ b: LowPassCoefficients) {
        gyroBias = limited(bias)
        let sigma = parameters.biasSigmaRest
        biasCovariance = Matrix3.identity * (sigma * sigma)
        isBiasKnown = true
        let vertical = restDetector.referenceAcceleration
        guard let levelling = Quaternion.levelling(vertical) else { return }
        gyroOrientation = .identity
        inclinationCorrection = levelling
        accelerationLowPass.reset(to: vertical, c)
        // The still average was taken in the frame the unknown bias turned; the new frame starts here.
        if let r = stillCoefficients { stillLowPass.reset(to: vertical, r) }
        gravity = orientation.verticalInSensorFrame
        let rotation = levelling.matrix
        rotationLowPass.reset(to: rotation, b)
        rotatedBiasLowPass.reset(to: rotation * gyroBias, b)
    }

    /// What a rest measures of the gyro bias: the gyro's average, less the turn the accelerometer
    /// shows, and whether that turn is slow enough for the rest to measure the bias.
    ///
    /// A thigh drifting or swaying slowly stays under the rest thresholds, and its turn, taken for
    /// bias, would tilt the inclination by degrees once the rest ended. At rest the accelerometer
    /// reads gravity alone, so its direction turns with the sensor about every axis but the vertical:
    /// g' = g × ω, hence ω = g' × g for the part that is not about g. Both are taken over the samples
    /// of the still run, the direction's rate as a least-squares slope and the gyro with the weights
    /// that slope gives each instant, so they compare like for like. The difference is the bias only
    /// while the motion's own accelerations are negligible: a sway's turn comes with them (a ±3° sway
    /// of a 45 cm thigh tilts the shank's accelerometer by a further 0.2°), so a turn faster than
    /// ``restTurnLimit`` measures nothing. A turn about the vertical remains, bounded by ``isAtRest``.
    private var restBias: (bias: Vector3, isSteady: Bool) {
        guard let fit = stillRun.fit, let up = fit.meanAcceleration.normalized, let directionRate = fit.directionRate
        else {
            return (restDetector.referenceRotationRate, true)
        }
        let turn = directionRate.cross(up) * (180 / Double.pi)
        let limit = Self.restTurnLimit
        return (fit.weightedRotationRate - turn, turn.lengthSquared <= limit * limit)
    }

    /// The turn of the vertical, °/s, above which a rest is a slow motion: over the 1.5 s a rest
    /// lasts at least, the slope of the accelerometer's direction has a noise of about 0.03 °/s.
    static let restTurnLimit = 0.1

    private func limited(_ bias: Vector3) -> Vector3 {
        let m = parameters.maximumBias
        return Vector3(min(max(bias.x, -m), m), min(max(bias.y, -m), m), min(max(bias.z, -m), m))
    }
}

/// Sums over the samples of a still run, for a least-squares line through the accelerometer and the
/// gyro's mean with the same weights; kept as running sums, so a rest allocates nothing.
struct StillRun: Sendable {
    private var count = 0.0
    /// Seconds since the run's first sample.
    private var elapsed = 0.0
    private var sumT = 0.0
    private var sumTT = 0.0
    private var sumA = Vector3.zero
    private var sumTA = Vector3.zero
    private var sumTW = Vector3.zero
    private var sumTTW = Vector3.zero

    mutating func removeAll() { self = StillRun() }

    mutating func add(rotationRate: Vector3, acceleration: Vector3, interval: Double) {
        if count > 0 { elapsed += interval }
        let t = elapsed
        count += 1
        sumT += t
        sumTT += t * t
        sumA += acceleration
        sumTA += acceleration * t
        sumTW += rotationRate * t
        sumTTW += rotationRate * (t * t)
    }

    struct Fit {
        var meanAcceleration: Vector3
        /// g/s.
        var accelerationSlope: Vector3
        /// The gyro averaged with the weights the slope gives the samples, t(T − t): a slope is the
        /// mean of the rate of change with those weights.
        var weightedRotationRate: Vector3

        /// How fast the accelerometer's direction turns, rad/s (its rate of change across the mean
        /// direction); nil without a direction.
        var directionRate: Vector3? {
            guard let up = meanAcceleration.normalized else { return nil }
            return accelerationSlope.rejecting(up) * (1 / meanAcceleration.length)
        }
    }

    /// The line through the run; nil before it holds two instants.
    var fit: Fit? {
        let spread = count * sumTT - sumT * sumT
        let weight = elapsed * sumT - sumTT
        guard count >= 2, spread > 0, weight > 0 else { return nil }
        return Fit(
            meanAcceleration: sumA * (1 / count),
            accelerationSlope: (sumTA * count - sumA * sumT) * (1 / spread),
            weightedRotationRate: (sumTW * elapsed - sumTTW) * (1 / weight))
    }
}

/// The bias filter's variances for one sample interval, (°/s)².
struct BiasNoise: Sendable, SampleIntervalDependent {
    var interval: Double
    var initialVariance: Double
    /// Growth of the variance per update: (0.1 °/s)² over the forgetting time.
    var processVariance: Double
    /// The same while the sensor moves, over the motion's forgetting time.
    var motionProcessVariance: Double
    var motionVariance: Double
    var verticalVariance: Double
    var restVariance: Double

    init(parameters: FusionParameters, interval: Double) {
        self.interval = interval
        initialVariance = parameters.biasSigmaInitial * parameters.biasSigmaInitial
        // (0.1 °/s)² over a forgetting time, per update.
        func growth(forgettingTime: Double) -> Double { 0.01 * interval / forgettingTime }
        let process = growth(forgettingTime: parameters.biasForgettingTime)
        processVariance = process
        motionProcessVariance = growth(forgettingTime: parameters.biasMotionForgettingTime)
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
}
