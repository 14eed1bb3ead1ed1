/// Decides whether the sensor is at rest from how much the gyro and accelerometer vary.
///
/// Each sample is compared with a low-passed reference. Comparing with the reference rather than with
/// zero lets a constant gyro bias, however large, count as rest, so the bias can be measured there.
public struct RestDetector: Sendable {
    public let parameters: FusionParameters
    /// Low-passed gyro in °/s: during rest, the gyro bias.
    public var referenceRotationRate: Vector3 { rotationRateLowPass.value }
    /// Low-passed accelerometer in g.
    public var referenceAcceleration: Vector3 { accelerationLowPass.value }
    /// Whether the last sample was within the thresholds.
    public private(set) var isStill = false
    /// Seconds the samples have been continuously still.
    public private(set) var stillDuration = 0.0
    private var rotationRateLowPass = LowPassFilter<Vector3>()
    private var accelerationLowPass = LowPassFilter<Vector3>()
    private var coefficients: LowPassCoefficients?

    public init(parameters: FusionParameters) {
        self.parameters = parameters
    }

    /// Whether the sensor has been still for at least ``FusionParameters/restMinimumDuration``.
    public var isAtRest: Bool { stillDuration >= parameters.restMinimumDuration }

    /// Feeds one sample.
    /// - Parameters:
    ///   - rotationRate: gyro in °/s, before bias correction.
    ///   - acceleration: accelerometer in g.
    ///   - interval: seconds since the previous sample (0 for the first).
    public mutating func update(rotationRate: Vector3, acceleration: Vector3, interval: Double) {
        // The first sample (no interval yet) starts nothing: the references begin with the next one.
        guard interval > 0 else {
            isStill = !rotationRateLowPass.hasValue
            return
        }
        let c = LowPassCoefficients.cached(&coefficients, timeConstant: parameters.restFilterTimeConstant,
                                           interval: interval)
        let rateReference = rotationRateLowPass.update(rotationRate, c)
        let accelerationReference = accelerationLowPass.update(acceleration, c)
        let gyroLimit = parameters.restGyroThreshold
        let accelerationLimit = parameters.restAccelerationThreshold
        isStill = (rotationRate - rateReference).lengthSquared <= gyroLimit * gyroLimit
            && (acceleration - accelerationReference).lengthSquared <= accelerationLimit * accelerationLimit
        stillDuration = isStill ? stillDuration + interval : 0
    }
}

extension LowPassCoefficients {
    /// The coefficients for `interval`, recomputed only when it differs by more than 1 % from the
    /// cached one: sensor clocks give a constant interval, recordings one that varies by rounding.
    static func cached(_ cache: inout LowPassCoefficients?, timeConstant: Double, interval: Double)
        -> LowPassCoefficients
    {
        if let c = cache, abs(c.interval - interval) <= 0.01 * c.interval { return c }
        let c = LowPassCoefficients(timeConstant: timeConstant, interval: interval)
        cache = c
        return c
    }
}
