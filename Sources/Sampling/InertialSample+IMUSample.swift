import Fusion
import Sensor

extension InertialSample {
    /// The fusion input for a sample decoded by the driver (time on the sensor's sample clock).
    public init(_ sample: IMUSample) {
        self.init(
            time: sample.timeSeconds,
            acceleration: Vector3(sample.accelerationG.x, sample.accelerationG.y, sample.accelerationG.z),
            rotationRate: Vector3(sample.angularRateDPS.x, sample.angularRateDPS.y, sample.angularRateDPS.z))
    }
}
