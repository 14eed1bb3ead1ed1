#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How the simulated sensor deviates from the truth, after the MPU-6050 product spec §6.1–6.2.
///
/// reading = (1 + scale error) × truth + offset + drift × (die temperature − 25 °C) + white noise
/// of `density × √(low-pass bandwidth)` rms per sample.
public struct SensorErrorModel: Equatable, Sendable {
    /// Gyro rate noise spectral density, °/s/√Hz (datasheet 0.005).
    public var gyroNoiseDensity: Double
    /// Accelerometer noise spectral density, g/√Hz (datasheet 400 µg/√Hz).
    public var accelNoiseDensity: Double
    /// Gyro zero-rate output at 25 °C, °/s (datasheet tolerance ±20).
    public var gyroOffsetDPS: SIMD3<Double>
    /// Accelerometer zero-g output at 25 °C, g (datasheet ±0.05 x/y, ±0.08 z).
    public var accelOffsetG: SIMD3<Double>
    /// Sensitivity error as a fraction, e.g. 0.01 = reads 1 % high (datasheet ±3 %).
    public var gyroScaleError: SIMD3<Double>
    /// Accelerometer sensitivity error as a fraction (datasheet ±3 %).
    public var accelScaleError: SIMD3<Double>
    /// Change of the gyro offset per °C, °/s/°C (datasheet ±20 °/s over −40…85 °C).
    public var gyroOffsetDriftPerCelsius: SIMD3<Double>
    /// Change of the accelerometer offset per °C, g/°C (datasheet ±35/±60 mg over 0…70 °C).
    public var accelOffsetDriftPerCelsius: SIMD3<Double>
    /// Sample-clock error as a fraction; positive runs fast (PLL: about ±1 %).
    public var sampleClockError: Double
    /// Die temperature over time; drives the offset drift and TEMP_OUT.
    public var temperature: DieTemperature

    public init(
        gyroNoiseDensity: Double = 0, accelNoiseDensity: Double = 0, gyroOffsetDPS: SIMD3<Double> = .zero,
        accelOffsetG: SIMD3<Double> = .zero, gyroScaleError: SIMD3<Double> = .zero,
        accelScaleError: SIMD3<Double> = .zero, gyroOffsetDriftPerCelsius: SIMD3<Double> = .zero,
        accelOffsetDriftPerCelsius: SIMD3<Double> = .zero, sampleClockError: Double = 0,
        temperature: DieTemperature = .constant(25)
    ) {
        self.gyroNoiseDensity = gyroNoiseDensity
        self.accelNoiseDensity = accelNoiseDensity
        self.gyroOffsetDPS = gyroOffsetDPS
        self.accelOffsetG = accelOffsetG
        self.gyroScaleError = gyroScaleError
        self.accelScaleError = accelScaleError
        self.gyroOffsetDriftPerCelsius = gyroOffsetDriftPerCelsius
        self.accelOffsetDriftPerCelsius = accelOffsetDriftPerCelsius
        self.sampleClockError = sampleClockError
        self.temperature = temperature
    }

    /// A perfect sensor (quantisation and range limits remain).
    public static let ideal = SensorErrorModel()

    /// Datasheet noise only: no offsets, scale errors or drift.
    public static let noiseOnly = SensorErrorModel(gyroNoiseDensity: 0.005, accelNoiseDensity: 400e-6)

    /// Datasheet noise plus offsets, scale errors, drift and clock error drawn from `seed`: each a
    /// normal with the datasheet tolerance as 3σ, clipped to the tolerance. The die warms from 28 to
    /// 34 °C with a 5-minute time constant.
    public static func datasheet(seed: UInt64) -> SensorErrorModel {
        var random = SplitMix64(seed: seed ^ 0x5EED_0FF5_E7E7_0000)
        func draw(_ tolerance: SIMD3<Double>) -> SIMD3<Double> {
            let g = SIMD3(random.nextGaussian(), random.nextGaussian(), random.nextGaussian())
            return (g * tolerance / 3).clamped(lowerBound: -tolerance, upperBound: tolerance)
        }
        return SensorErrorModel(
            gyroNoiseDensity: 0.005, accelNoiseDensity: 400e-6,
            gyroOffsetDPS: draw([20, 20, 20]), accelOffsetG: draw([0.05, 0.05, 0.08]),
            gyroScaleError: draw([0.03, 0.03, 0.03]), accelScaleError: draw([0.03, 0.03, 0.03]),
            gyroOffsetDriftPerCelsius: draw([0.16, 0.16, 0.16]),
            accelOffsetDriftPerCelsius: draw([0.0005, 0.0005, 0.00086]),
            sampleClockError: draw([0.01, 0, 0]).x,
            temperature: DieTemperature(startCelsius: 28, settledCelsius: 34, timeConstantSeconds: 300))
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
