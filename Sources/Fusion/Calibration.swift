/// Corrections measured once for one sensor on one patient, applied to every raw sample.
///
/// The corrected accelerometer is `accelerometerMatrix · (raw − accelerometerOffset)` (g), the
/// corrected gyro `gyroMatrix · (raw − gyroBias)` (°/s). Each matrix holds the sensitivity of
/// every axis on its diagonal and the cross-axis and misalignment terms off it; the gyro's maps
/// into the accelerometer's corrected frame, so that both sensors share one frame. Stored as
/// JSON; ``version`` lets a reader refuse a file written by a newer format instead of misreading
/// it, and version 1 files (per-axis scales only) are still read.
public struct Calibration: Hashable, Sendable {
    /// The format version this code writes.
    public static let currentVersion = 2

    public var version: Int
    /// Gyro zero-rate output in °/s.
    public var gyroBias: Vector3
    /// Raw gyro (bias removed) → rate in the accelerometer's frame; the inverse sensitivity,
    /// including the sample clock's error.
    public var gyroMatrix: Matrix3
    /// Accelerometer zero-g offset in g.
    public var accelerometerOffset: Vector3
    /// Raw accelerometer (offset removed) → acceleration in g.
    public var accelerometerMatrix: Matrix3
    /// How the sensor sits on the shin, when it was measured.
    public var mounting: Mounting?

    public init(
        gyroBias: Vector3 = .zero, gyroMatrix: Matrix3 = .identity, accelerometerOffset: Vector3 = .zero,
        accelerometerMatrix: Matrix3 = .identity, mounting: Mounting? = nil
    ) {
        self.version = Self.currentVersion
        self.gyroBias = gyroBias
        self.gyroMatrix = gyroMatrix
        self.accelerometerOffset = accelerometerOffset
        self.accelerometerMatrix = accelerometerMatrix
        self.mounting = mounting
    }

    /// The identity calibration: samples pass unchanged.
    public static let identity = Calibration()

    /// A raw sample with the corrections applied.
    @inlinable
    public func corrected(_ raw: InertialSample) -> InertialSample {
        InertialSample(
            time: raw.time,
            acceleration: accelerometerMatrix * (raw.acceleration - accelerometerOffset),
            rotationRate: gyroMatrix * (raw.rotationRate - gyroBias))
    }

    /// Largest deviation of a sensitivity (a diagonal element) from 1: the datasheet's ±3 %, the
    /// sample clock's ±1 %, with room for a part at the edge of both.
    public static let sensitivityTolerance = 0.1
    /// Largest cross-axis or misalignment term: the datasheet's ±2 % cross-axis sensitivity plus a
    /// few degrees of misalignment between the gyro and the accelerometer.
    public static let crossAxisTolerance = 0.1

    /// Problems that make the values unusable, e.g. from a damaged or foreign file; empty when valid.
    public var problems: [String] {
        var problems: [String] = []
        if version != Self.currentVersion {
            problems.append("format version \(version) (this program writes version \(Self.currentVersion))")
        }
        let vectors = [gyroBias, accelerometerOffset]
        if vectors.contains(where: { !($0.x.isFinite && $0.y.isFinite && $0.z.isFinite) })
            || !gyroMatrix.isFinite || !accelerometerMatrix.isFinite
        {
            problems.append("a value is not a finite number")
        }
        for (name, matrix) in [("accelerometer", accelerometerMatrix), ("gyro", gyroMatrix)] {
            let diagonal = matrix.diagonal
            if [diagonal.x, diagonal.y, diagonal.z].contains(where: { !(abs($0 - 1) <= Self.sensitivityTolerance) }) {
                problems.append("\(name) sensitivity correction outside 0.9…1.1 (datasheet tolerance is ±3 %)")
            }
            if !(matrix.largestOffDiagonal <= Self.crossAxisTolerance) {
                problems.append("\(name) cross-axis correction above 0.1 (datasheet cross-axis sensitivity is ±2 %)")
            }
        }
        if let mounting,
            abs(mounting.shinAxis.length - 1) > 1e-6 || abs(mounting.hingeAxis.length - 1) > 1e-6
                || abs(mounting.shinAxis.dot(mounting.hingeAxis)) > 1e-6
        {
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
