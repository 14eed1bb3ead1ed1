#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How the simulated sensor deviates from the truth, after the MPU-6050 product spec §6.1–6.2.
///
/// reading = sensitivity × truth + offset + drift × (die temperature − 25 °C) + white noise of
/// `density × √(low-pass bandwidth)` rms per sample, where the sensitivity matrix holds each axis's
/// scale error on its diagonal and the cross-axis terms off it; the gyro also reads its
/// sensitivity to linear acceleration times the specific force.
public struct SensorErrorModel: Equatable, Sendable {
    /// Gyro rate noise spectral density, °/s/√Hz (datasheet 0.005).
    public var gyroNoiseDensity: Double
    /// Accelerometer noise spectral density, g/√Hz (datasheet 400 µg/√Hz).
    public var accelNoiseDensity: Double
    /// Gyro zero-rate output at 25 °C, °/s (datasheet tolerance ±20).
    public var gyroOffsetDPS: SIMD3<Double>
    /// Accelerometer zero-g output at 25 °C, g (datasheet ±0.05 x/y, ±0.08 z).
    public var accelOffsetG: SIMD3<Double>
    /// Gyro reading per true rate (datasheet: sensitivity ±3 %, cross-axis ±2 %).
    public var gyroSensitivity: SensitivityMatrix
    /// Accelerometer reading per true specific force (datasheet: sensitivity ±3 %, cross-axis ±2 %).
    public var accelSensitivity: SensitivityMatrix
    /// Gyro reading per g of specific force, °/s/g (datasheet: linear acceleration sensitivity
    /// 0.1 °/s/g, typical): a gyro's zero moves with the pose, as gravity turns in its frame.
    public var gyroAccelerationSensitivity: SensitivityMatrix
    /// Change of the gyro offset per °C, °/s/°C (datasheet ±20 °/s over −40…85 °C).
    public var gyroOffsetDriftPerCelsius: SIMD3<Double>
    /// Change of the accelerometer offset per °C, g/°C (datasheet ±35/±60 mg over 0…70 °C).
    public var accelOffsetDriftPerCelsius: SIMD3<Double>
    /// Sample-clock error as a fraction; positive runs fast (PLL: about ±1 %). The samples come
    /// that much more often than the configured rate, while the driver's timestamps assume it.
    public var sampleClockError: Double
    /// Die temperature over time; drives the offset drift and TEMP_OUT.
    public var temperature: DieTemperature

    public init(
        gyroNoiseDensity: Double = 0, accelNoiseDensity: Double = 0, gyroOffsetDPS: SIMD3<Double> = .zero,
        accelOffsetG: SIMD3<Double> = .zero, gyroSensitivity: SensitivityMatrix = .identity,
        accelSensitivity: SensitivityMatrix = .identity, gyroAccelerationSensitivity: SensitivityMatrix = .zero,
        gyroOffsetDriftPerCelsius: SIMD3<Double> = .zero,
        accelOffsetDriftPerCelsius: SIMD3<Double> = .zero, sampleClockError: Double = 0,
        temperature: DieTemperature = .constant(25)
    ) {
        self.gyroNoiseDensity = gyroNoiseDensity
        self.accelNoiseDensity = accelNoiseDensity
        self.gyroOffsetDPS = gyroOffsetDPS
        self.accelOffsetG = accelOffsetG
        self.gyroSensitivity = gyroSensitivity
        self.accelSensitivity = accelSensitivity
        self.gyroAccelerationSensitivity = gyroAccelerationSensitivity
        self.gyroOffsetDriftPerCelsius = gyroOffsetDriftPerCelsius
        self.accelOffsetDriftPerCelsius = accelOffsetDriftPerCelsius
        self.sampleClockError = sampleClockError
        self.temperature = temperature
    }

    /// A perfect sensor (quantisation and range limits remain).
    public static let ideal = SensorErrorModel()

    /// Datasheet noise only: no offsets, scale errors or drift.
    public static let noiseOnly = SensorErrorModel(gyroNoiseDensity: 0.005, accelNoiseDensity: 400e-6)

    /// Datasheet noise plus offsets, sensitivity and cross-axis errors, drift and clock error drawn
    /// from `seed`: each a normal with the datasheet tolerance as 3σ, clipped to the tolerance. The
    /// gyro's sensitivity to acceleration, for which the datasheet gives a typical value and no
    /// tolerance, is drawn so that a typical axis has it: each of the nine terms with σ = 0.1/√3
    /// °/s/g, clipped at 3σ. The die warms from 28 to 34 °C with a 5-minute time constant.
    public static func datasheet(seed: UInt64) -> SensorErrorModel {
        var random = SplitMix64(seed: seed ^ 0x5EED_0FF5_E7E7_0000)
        func draw(_ tolerance: SIMD3<Double>) -> SIMD3<Double> {
            let g = SIMD3(random.nextGaussian(), random.nextGaussian(), random.nextGaussian())
            return (g * tolerance / 3).clamped(lowerBound: -tolerance, upperBound: tolerance)
        }
        let gyroOffset = draw([20, 20, 20]), accelOffset = draw([0.05, 0.05, 0.08])
        let gyroScale = draw(Self.sensitivityTolerance), accelScale = draw(Self.sensitivityTolerance)
        let gyroDrift = draw([0.16, 0.16, 0.16]), accelDrift = draw([0.0005, 0.0005, 0.00086])
        let clock = draw([0.01, 0, 0]).x
        let gyroCross = (draw(Self.crossAxisTolerance), draw(Self.crossAxisTolerance))
        let accelCross = (draw(Self.crossAxisTolerance), draw(Self.crossAxisTolerance))
        // Drawn last, so that the draws before it are those of the model without it.
        let perG = Self.gyroAccelerationSensitivityTolerance
        let gSensitivity = SensitivityMatrix(rows: draw(perG), draw(perG), draw(perG))
        return SensorErrorModel(
            gyroNoiseDensity: 0.005, accelNoiseDensity: 400e-6, gyroOffsetDPS: gyroOffset, accelOffsetG: accelOffset,
            gyroSensitivity: SensitivityMatrix(scaleError: gyroScale, above: gyroCross.0, below: gyroCross.1),
            accelSensitivity: SensitivityMatrix(scaleError: accelScale, above: accelCross.0, below: accelCross.1),
            gyroAccelerationSensitivity: gSensitivity,
            gyroOffsetDriftPerCelsius: gyroDrift, accelOffsetDriftPerCelsius: accelDrift, sampleClockError: clock,
            temperature: DieTemperature(startCelsius: 28, settledCelsius: 34, timeConstantSeconds: 300))
    }

    /// Datasheet sensitivity tolerance of each axis (±3 %).
    public static let sensitivityTolerance = SIMD3<Double>(0.03, 0.03, 0.03)
    /// Datasheet cross-axis sensitivity (±2 %).
    public static let crossAxisTolerance = SIMD3<Double>(0.02, 0.02, 0.02)
    /// 3σ of each term of the gyro's sensitivity to acceleration, °/s/g: with σ = 0.1/√3 a row
    /// (one axis's sensitivity to a g from any direction) is about 0.1 °/s/g, the datasheet's
    /// typical.
    public static let gyroAccelerationSensitivityTolerance = SIMD3<Double>(repeating: 0.3 / 3.0.squareRoot())
}

/// A sensor's reading per unit of true input, by rows: 1 + scale error on the diagonal, the
/// cross-axis sensitivities (including the die's misalignment to the package) off it.
public struct SensitivityMatrix: Equatable, Sendable {
    public var row0: SIMD3<Double>
    public var row1: SIMD3<Double>
    public var row2: SIMD3<Double>

    public init(rows row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// - Parameters:
    ///   - scaleError: Of each axis, as a fraction (0.01 = reads 1 % high).
    ///   - above: The terms above the diagonal: xy, xz, yz (row, column).
    ///   - below: The terms below it: yx, zx, zy.
    public init(scaleError: SIMD3<Double> = .zero, above: SIMD3<Double> = .zero, below: SIMD3<Double> = .zero) {
        self.init(
            rows: SIMD3(1 + scaleError.x, above.x, above.y), SIMD3(below.x, 1 + scaleError.y, above.z),
            SIMD3(below.y, below.z, 1 + scaleError.z))
    }

    public static let identity = SensitivityMatrix()
    /// No reading at all, for a sensitivity that is an error alone.
    public static let zero = SensitivityMatrix(rows: .zero, .zero, .zero)

    /// Each axis's scale error (the diagonal minus 1).
    public var scaleError: SIMD3<Double> {
        SIMD3(row0.x, row1.y, row2.z) - 1
    }

    /// The same matrix with the off-diagonal terms removed.
    public var diagonalOnly: SensitivityMatrix {
        SensitivityMatrix(scaleError: scaleError)
    }

    /// The same matrix with only the off-diagonal terms.
    public var crossAxisOnly: SensitivityMatrix {
        SensitivityMatrix(above: SIMD3(row0.y, row0.z, row1.z), below: SIMD3(row1.x, row2.x, row2.y))
    }

    /// `M v`.
    public static func * (m: SensitivityMatrix, v: SIMD3<Double>) -> SIMD3<Double> {
        let x = (m.row0 * v).sum(), y = (m.row1 * v).sum(), z = (m.row2 * v).sum()
        return SIMD3(x, y, z)
    }
}

/// Die temperature over time: a first-order approach from `startCelsius` to `settledCelsius`.
public struct DieTemperature: Equatable, Sendable {
    /// At power-up, °C.
    public var startCelsius: Double
    /// After warming up, °C.
    public var settledCelsius: Double
    /// Time constant of the warm-up, seconds.
    public var timeConstantSeconds: Double

    public init(startCelsius: Double, settledCelsius: Double, timeConstantSeconds: Double) {
        self.startCelsius = startCelsius
        self.settledCelsius = settledCelsius
        self.timeConstantSeconds = timeConstantSeconds
    }

    /// A die held at `celsius` throughout.
    public static func constant(_ celsius: Double) -> DieTemperature {
        DieTemperature(startCelsius: celsius, settledCelsius: celsius, timeConstantSeconds: 1)
    }

    /// °C at `t` seconds after power-up.
    public func celsius(atSeconds t: Double) -> Double {
        settledCelsius + (startCelsius - settledCelsius) * exp(-max(0, t) / timeConstantSeconds)
    }
}
