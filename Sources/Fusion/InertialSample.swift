/// One accelerometer + gyroscope reading, in physical units, at one sampling instant.
public struct InertialSample: Hashable, Sendable {
    /// Time of the sampling instant in seconds on the sensor's (or recording's) clock.
    /// Only differences matter: each sample is integrated over the interval since the previous one.
    public var time: Double
    /// Specific force in g, sensor frame. At rest it points away from the earth, length 1.
    public var acceleration: Vector3
    /// Angular rate in degrees per second, sensor frame, right-handed.
    public var rotationRate: Vector3

    @inlinable
    public init(time: Double, acceleration: Vector3, rotationRate: Vector3) {
        self.time = time
        self.acceleration = acceleration
        self.rotationRate = rotationRate
    }
}
