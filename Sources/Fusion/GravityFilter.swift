#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A complementary filter estimating the direction of gravity in the sensor frame.
///
/// Each sample first rotates the estimate by the bias-corrected gyro over the sample's own interval,
/// then pulls it toward the normalised accelerometer with time constant
/// ``FusionParameters/accelerometerTimeConstant``. Working on the 3-D direction rather than on Euler
/// angles keeps the result independent of how the board sits in its strap and free of gimbal and
/// ±180° wrap problems. The gyro bias is learnt while the ``RestDetector`` reports rest, and
/// accelerometer samples far from 1 g are not used.
///
/// "Gravity" here is what the accelerometer reads at rest, normalised: it points *away* from the
/// earth (+z when the board lies flat, component side up).
public struct GravityFilter: Sendable {
    public let parameters: FusionParameters
    /// The unit gravity direction in the sensor frame; meaningful once ``isInitialised``.
    public private(set) var gravity = Vector3.unitZ
    /// The estimated gyro bias in °/s, subtracted from every gyro sample.
    public private(set) var gyroBias: Vector3
    /// Whether the last sample's accelerometer was rejected as too far from 1 g.
    public private(set) var isAccelerationRejected = false
    /// Whether a plausible accelerometer sample has set the initial direction.
    public private(set) var isInitialised = false
    public private(set) var restDetector: RestDetector

    private var previousTime: Double?
    private var previousRate = Vector3.zero
    /// Seconds since initialisation, capped at τ: the expanding averaging window of the start.
    private var averagingWindow = 0.0
    /// Seconds of rest used for the bias so far, capped at the bias time constant.
    private var biasWindow = 0.0

    /// - Parameters:
    ///   - parameters: the tuning.
    ///   - gyroBias: a bias known in advance (°/s), e.g. a residual from calibration; usually zero
    ///     because calibration has already been applied to the samples.
    public init(parameters: FusionParameters = FusionParameters(), gyroBias: Vector3 = .zero) {
        self.parameters = parameters
        self.gyroBias = gyroBias
        self.restDetector = RestDetector(parameters: parameters)
    }

    /// Whether the sensor is at rest (see ``RestDetector``).
    public var isAtRest: Bool { restDetector.isAtRest }

    /// Feeds one sample. Its interval is the difference to the previous sample's time; a sample whose
    /// time does not advance is used for the accelerometer only.
    public mutating func update(_ sample: InertialSample) {
        let interval = previousTime.map { max(0, sample.time - $0) } ?? 0
        previousTime = sample.time
        update(acceleration: sample.acceleration, rotationRate: sample.rotationRate, interval: interval)
    }

    /// Feeds one sample with an explicit interval.
    /// - Parameters:
    ///   - acceleration: accelerometer in g.
    ///   - rotationRate: raw gyro in °/s (the filter subtracts its bias).
    ///   - interval: seconds since the previous sample.
    public mutating func update(acceleration: Vector3, rotationRate: Vector3, interval: Double) {
        restDetector.update(rotationRate: rotationRate, acceleration: acceleration, interval: interval,
                            knownBias: biasWindow > 0 ? gyroBias : nil)
        if restDetector.isAtRest {
            if biasWindow == 0, let still = restDetector.referenceAcceleration.normalized {
                // The first rest: until now the gyro was integrated with an unknown bias, so the
                // estimate has drifted; the rest's mean accelerometer is the better start pose.
                gravity = still
                isInitialised = true
                averagingWindow = parameters.accelerometerTimeConstant
            }
            learnBias(rotationRate: rotationRate, interval: interval)
        }
        let corrected = rotationRate - gyroBias
        if isInitialised {
            // Trapezoidal rule: the rate over the interval is the mean of its two end samples.
            let meanRate = (corrected + previousRate) * 0.5
            // A world-fixed vector seen from the sensor turns opposite to the sensor's rotation.
            gravity = gravity.rotated(by: meanRate * (-interval * Double.pi / 180))
        }
        previousRate = corrected

        let magnitude = acceleration.length
        isAccelerationRejected = !(abs(magnitude - 1) <= parameters.accelerationRejectionThreshold)
        guard !isAccelerationRejected else { return }
        let measured = acceleration / magnitude
        guard isInitialised else {
            gravity = measured
            isInitialised = true
            return
        }
        // An expanding window first, so the start pose is the mean of the first samples rather than
        // the first noisy one, then the fixed time constant.
        averagingWindow = min(averagingWindow + interval, parameters.accelerometerTimeConstant)
        guard averagingWindow > 0 else { return }
        let window = restDetector.isAtRest
            ? min(averagingWindow, parameters.restAccelerometerTimeConstant) : averagingWindow
        // After a gap longer than the window the measurement simply replaces the estimate.
        let k = min(1, interval / window)
        if let blended = (gravity + (measured - gravity) * k).normalized {
            gravity = blended
        }
    }

    private mutating func learnBias(rotationRate: Vector3, interval: Double) {
        guard biasWindow > 0 else {
            // The first rest: the detector's reference already averages the last
            // `restFilterTimeConstant` seconds of still gyro samples.
            gyroBias = restDetector.referenceRotationRate
            biasWindow = min(parameters.restFilterTimeConstant, parameters.biasTimeConstant)
            return
        }
        biasWindow = min(biasWindow + interval, parameters.biasTimeConstant)
        gyroBias += (rotationRate - gyroBias) * (interval / biasWindow)
    }
}
