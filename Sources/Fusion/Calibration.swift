/// Corrections measured once for the sensors on one patient, applied to every raw sample: the
/// shank board's own correction (``sensor``) and how it sits on the shin (``mounting``) and, when a
/// thigh board is fitted, that board's correction and the knee's hinge axes in both boards' frames
/// (``thigh``).
///
/// Stored as JSON; ``version`` lets a reader refuse a file written by a newer format instead of
/// misreading it, and version 1 files (per-axis scales only) are still read.
public struct Calibration: Hashable, Sendable {
    /// The format version this code writes.
    public static let currentVersion = 2

    public var version: Int
    /// The shank board's correction.
    public var sensor: SensorCorrection
    /// How the sensor sits on the shin, when it was measured.
    public var mounting: Mounting?
    /// The thigh board's part, once it was calibrated.
    public var thigh: ThighCalibration?

    public init(
        gyroBias: Vector3 = .zero, gyroMatrix: Matrix3 = .identity, accelerometerOffset: Vector3 = .zero,
        accelerometerMatrix: Matrix3 = .identity, mounting: Mounting? = nil, thigh: ThighCalibration? = nil
    ) {
        self.init(
            sensor: SensorCorrection(
                gyroBias: gyroBias, gyroMatrix: gyroMatrix, accelerometerOffset: accelerometerOffset,
                accelerometerMatrix: accelerometerMatrix),
            mounting: mounting, thigh: thigh)
    }

    public init(sensor: SensorCorrection, mounting: Mounting? = nil, thigh: ThighCalibration? = nil) {
        self.version = Self.currentVersion
        self.sensor = sensor
        self.mounting = mounting
        self.thigh = thigh
    }

    /// The identity calibration: samples pass unchanged.
    public static let identity = Calibration()

    /// Gyro zero-rate output in °/s (the shank board's; see ``SensorCorrection``).
    public var gyroBias: Vector3 {
        get { sensor.gyroBias }
        set { sensor.gyroBias = newValue }
    }
    public var gyroMatrix: Matrix3 {
        get { sensor.gyroMatrix }
        set { sensor.gyroMatrix = newValue }
    }
    public var accelerometerOffset: Vector3 {
        get { sensor.accelerometerOffset }
        set { sensor.accelerometerOffset = newValue }
    }
    public var accelerometerMatrix: Matrix3 {
        get { sensor.accelerometerMatrix }
        set { sensor.accelerometerMatrix = newValue }
    }

    /// A raw sample of the shank board with its corrections applied.
    @inlinable
    public func corrected(_ raw: InertialSample) -> InertialSample {
        sensor.corrected(raw)
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
        problems += sensor.problems
        if let mounting,
            abs(mounting.shinAxis.length - 1) > 1e-6 || abs(mounting.hingeAxis.length - 1) > 1e-6
                || abs(mounting.shinAxis.dot(mounting.hingeAxis)) > 1e-6
        {
            problems.append("the mounting's axes are not perpendicular unit vectors")
        }
        if let thigh {
            problems += (thigh.sensor?.problems ?? []).map { "thigh sensor: " + $0 }
            if let axes = thigh.hingeAxes,
                !(abs(axes.thigh.length - 1) <= 1e-6 && abs(axes.shank.length - 1) <= 1e-6)
            {
                problems.append("the hinge axes are not unit vectors")
            }
        }
        return problems
    }

    /// This calibration of the shank board in place of `previous`'s, keeping the thigh board's
    /// correction (it belongs to that board) but not the hinge axes: the shank board was strapped
    /// on anew, so the knee's axis in its frame must be found again (``HingeCalibration``).
    public func keepingThighCorrection(of previous: Calibration?) -> Calibration {
        var merged = self
        merged.thigh = previous?.thigh?.sensor.map { ThighCalibration(sensor: $0) }
        return merged
    }
}

/// One board's correction: the corrected accelerometer is `accelerometerMatrix · (raw −
/// accelerometerOffset)` (g), the corrected gyro `gyroMatrix · (raw − gyroBias)` (°/s). Each matrix
/// holds the sensitivity of every axis on its diagonal and the cross-axis and misalignment terms
/// off it; the gyro's maps into the accelerometer's corrected frame, so that both sensors share
/// one frame.
public struct SensorCorrection: Hashable, Sendable {
    /// Gyro zero-rate output in °/s.
    public var gyroBias: Vector3
    /// Raw gyro (bias removed) → rate in the accelerometer's frame; the inverse sensitivity,
    /// including the sample clock's error.
    public var gyroMatrix: Matrix3
    /// Accelerometer zero-g offset in g.
    public var accelerometerOffset: Vector3
    /// Raw accelerometer (offset removed) → acceleration in g.
    public var accelerometerMatrix: Matrix3

    public init(
        gyroBias: Vector3 = .zero, gyroMatrix: Matrix3 = .identity, accelerometerOffset: Vector3 = .zero,
        accelerometerMatrix: Matrix3 = .identity
    ) {
        self.gyroBias = gyroBias
        self.gyroMatrix = gyroMatrix
        self.accelerometerOffset = accelerometerOffset
        self.accelerometerMatrix = accelerometerMatrix
    }

    /// A raw sample with the corrections applied.
    @inlinable
    public func corrected(_ raw: InertialSample) -> InertialSample {
        InertialSample(
            time: raw.time,
            acceleration: accelerometerMatrix * (raw.acceleration - accelerometerOffset),
            rotationRate: gyroMatrix * (raw.rotationRate - gyroBias))
    }

    /// Values outside what a sensor of the family can need; empty when valid.
    public var problems: [String] {
        var problems: [String] = []
        let vectors = [gyroBias, accelerometerOffset]
        if vectors.contains(where: { !($0.x.isFinite && $0.y.isFinite && $0.z.isFinite) })
            || !gyroMatrix.isFinite || !accelerometerMatrix.isFinite
        {
            problems.append("a value is not a finite number")
        }
        for (name, matrix) in [("accelerometer", accelerometerMatrix), ("gyro", gyroMatrix)] {
            let diagonal = matrix.diagonal
            let tolerance = Calibration.sensitivityTolerance
            if [diagonal.x, diagonal.y, diagonal.z].contains(where: { !(abs($0 - 1) <= tolerance) }) {
                problems.append("\(name) sensitivity correction outside 0.9…1.1 (datasheet tolerance is ±3 %)")
            }
            if !(matrix.largestOffDiagonal <= Calibration.crossAxisTolerance) {
                problems.append("\(name) cross-axis correction above 0.1 (datasheet cross-axis sensitivity is ±2 %)")
            }
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

/// The thigh board's part of a calibration: its own correction, from the same six-face procedure
/// as the shank board's (``GuidedCalibration/Parameters/endsAfterFaces``), and the knee's hinge
/// axes in both boards' frames, from a few free knee swings with both strapped on
/// (``HingeCalibration``).
public struct ThighCalibration: Hashable, Sendable {
    /// The thigh board's correction; nil until its faces were calibrated.
    public var sensor: SensorCorrection?
    /// The knee's axis in both boards' frames, oriented so that extension is a positive rotation of
    /// the shank; nil until the hinge step.
    public var hingeAxes: HingeAxes?

    public init(sensor: SensorCorrection? = nil, hingeAxes: HingeAxes? = nil) {
        self.sensor = sensor
        self.hingeAxes = hingeAxes
    }

    /// A raw sample of the thigh board with its correction applied, if it has one.
    @inlinable
    public func corrected(_ raw: InertialSample) -> InertialSample {
        sensor?.corrected(raw) ?? raw
    }
}
