/// Corrections measured once for one sensor on one patient, applied to every raw sample.
///
/// The corrected accelerometer is `(raw − accelerometerOffset) / accelerometerScale` per axis (g), the
/// corrected gyro `(raw − gyroBias) / gyroScale` (°/s). Stored as JSON; ``version`` lets a reader refuse a file
/// written by a newer format instead of misreading it.
public struct Calibration: Hashable, Sendable, Codable {
    /// The format version this code writes and reads.
    public static let currentVersion = 1

    public var version: Int
    /// Gyro zero-rate output in °/s.
    public var gyroBias: Vector3
    /// Gyro sensitivity relative to nominal, per axis (includes the sample clock's error).
    public var gyroScale: Vector3
    /// Accelerometer zero-g offset in g.
    public var accelerometerOffset: Vector3
    /// Accelerometer sensitivity relative to nominal (1 = datasheet LSB/g), per axis.
    public var accelerometerScale: Vector3
    /// How the sensor sits on the shin, when it was measured.
    public var mounting: Mounting?

    public init(gyroBias: Vector3 = .zero, gyroScale: Vector3 = Vector3(1, 1, 1), accelerometerOffset: Vector3 = .zero,
                accelerometerScale: Vector3 = Vector3(1, 1, 1), mounting: Mounting? = nil) {
        self.version = Self.currentVersion
        self.gyroBias = gyroBias
        self.gyroScale = gyroScale
        self.accelerometerOffset = accelerometerOffset
        self.accelerometerScale = accelerometerScale
        self.mounting = mounting
    }

    /// The identity calibration: samples pass unchanged.
    public static let identity = Calibration()

    /// A raw sample with the corrections applied.
    @inlinable
    public func corrected(_ raw: InertialSample) -> InertialSample {
        InertialSample(
            time: raw.time,
            acceleration: (raw.acceleration - accelerometerOffset).divided(by: accelerometerScale),
            rotationRate: (raw.rotationRate - gyroBias).divided(by: gyroScale))
    }

    /// Problems that make the values unusable, e.g. from a damaged or foreign file; empty when valid.
    public var problems: [String] {
        var problems: [String] = []
        if version != Self.currentVersion {
            problems.append("format version \(version) (this program reads version \(Self.currentVersion))")
        }
        let all = [gyroBias, gyroScale, accelerometerOffset, accelerometerScale]
        if all.contains(where: { !($0.x.isFinite && $0.y.isFinite && $0.z.isFinite) }) {
            problems.append("a value is not a finite number")
        }
        if [accelerometerScale.x, accelerometerScale.y, accelerometerScale.z].contains(where: { !(0.8...1.2).contains($0) }) {
            problems.append("accelerometer scale outside 0.8…1.2 (datasheet tolerance is ±3 %)")
        }
        if [gyroScale.x, gyroScale.y, gyroScale.z].contains(where: { !(0.9...1.1).contains($0) }) {
            problems.append("gyro scale outside 0.9…1.1 (datasheet tolerance is ±3 %)")
        }
        if let mounting, abs(mounting.shinAxis.length - 1) > 1e-6 || abs(mounting.hingeAxis.length - 1) > 1e-6
            || abs(mounting.shinAxis.dot(mounting.hingeAxis)) > 1e-6 {
            problems.append("the mounting's axes are not perpendicular unit vectors")
        }
        if accelerometerOffset.maximumMagnitude > 0.5 {
            problems.append("accelerometer offset above 0.5 g (datasheet tolerance is ±80 mg)")
        }
        if gyroBias.maximumMagnitude > 60 {
            problems.append("gyro bias above 60 °/s (datasheet tolerance is ±40 °/s over temperature)")
        }
        return problems
    }
}
