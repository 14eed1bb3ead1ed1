/// Decides whether the sensor is at rest from how much the gyro and accelerometer vary.
///
/// Each sample is compared with a low-passed reference (VQF's scheme). Comparing with the reference
/// rather than with zero lets a constant gyro bias, however large, count as rest, so the bias can be
/// learnt; a steady rotation large enough to matter changes the accelerometer and is not rest.
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

    public init(parameters: FusionParameters) {
        self.parameters = parameters
    }

    /// Whether the sensor has been still for at least ``FusionParameters/restMinimumDuration``.
    @inlinable
    public var isAtRest: Bool { stillDuration >= parameters.restMinimumDuration }

    /// Feeds one raw sample.
    /// - Parameters:
    ///   - rotationRate: gyro in °/s, before bias correction.
    ///   - acceleration: accelerometer in g.
    ///   - interval: seconds since the previous sample (0 for the first).
    ///   - knownBias: the gyro bias learnt at an earlier rest, if any. A later rest must agree with it
    ///     within ``FusionParameters/restGyroThreshold``: bias drifts slowly, so a steady rotation about
    ///     the vertical (a swivel chair), which leaves the accelerometer unchanged, is not taken for rest.
    ///     Before any rest, only ``FusionParameters/maximumBias`` bounds it.
    public mutating func update(rotationRate: Vector3, acceleration: Vector3, interval: Double,
                                knownBias: Vector3? = nil) {
        guard hasReference else {
            referenceRotationRate = rotationRate
            referenceAcceleration = acceleration
            hasReference = true
            isStill = true
            stillDuration = 0
            return
        }
        let k = interval / (parameters.restFilterTimeConstant + interval)
        referenceRotationRate += (rotationRate - referenceRotationRate) * k
        referenceAcceleration += (acceleration - referenceAcceleration) * k
        let gyroLimit = parameters.restGyroThreshold * parameters.restGyroThreshold
        isStill = (rotationRate - referenceRotationRate).lengthSquared <= gyroLimit
            && (acceleration - referenceAcceleration).lengthSquared
                <= parameters.restAccelerationThreshold * parameters.restAccelerationThreshold
            && (knownBias.map { (referenceRotationRate - $0).lengthSquared <= gyroLimit }
                ?? (referenceRotationRate.lengthSquared <= parameters.maximumBias * parameters.maximumBias))
        stillDuration = isStill ? stillDuration + interval : 0
    }
}
