/// Decides whether the sensor is at rest from how much the gyro and accelerometer vary.
///
/// Each sample is compared with a low-passed reference. Comparing with the reference rather than with
/// zero lets a constant gyro bias, however large, count as rest, so the bias can be measured there.
public struct RestDetector: Sendable {
    public let parameters: FusionParameters
    /// Low-passed gyro in °/s: during rest, the gyro bias.
    public private(set) var referenceRotationRate = Vector3.zero
    /// Low-passed accelerometer in g.
    public private(set) var referenceAcceleration = Vector3.zero
    /// Whether the last sample was within the thresholds.
    public private(set) var isStill = false
    /// Seconds the samples have been continuously still.
    public private(set) var stillDuration = 0.0
    private var hasReference = false
    /// The low-pass step for the last interval: sensor intervals repeat, a division need not.
    private var step = (interval: 0.0, k: 0.0)

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
        guard hasReference else {
            referenceRotationRate = rotationRate
            referenceAcceleration = acceleration
            hasReference = true
            isStill = true
            stillDuration = 0
            return
        }
        // A first-order low-pass: the reference need only follow posture, not shape a response.
        if interval != step.interval { step = (interval, interval / (parameters.restFilterTimeConstant + interval)) }
        let k = step.k
        referenceRotationRate += (rotationRate - referenceRotationRate) * k
        referenceAcceleration += (acceleration - referenceAcceleration) * k
        let gyroLimit = parameters.restGyroThreshold
        let accelerationLimit = parameters.restAccelerationThreshold
        isStill =
            (rotationRate - referenceRotationRate).lengthSquared <= gyroLimit * gyroLimit
            && (acceleration - referenceAcceleration).lengthSquared <= accelerationLimit * accelerationLimit
        stillDuration = isStill ? stillDuration + interval : 0
    }
}
