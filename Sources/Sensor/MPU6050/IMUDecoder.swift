/// Turns raw big-endian two's-complement words into g, °/s and °C for one configuration.
/// Pure: no I/O, so every full-scale setting is tested exhaustively.
public struct IMUDecoder: Sendable {
    /// Accelerometer scale, g per LSB, for the configured full range.
    public let gPerLSB: Double
    /// Gyroscope scale, °/s per LSB, for the configured full range.
    public let dpsPerLSB: Double
    /// The part whose temperature formula applies.
    public let part: MPU6050Part

    public init(configuration: MPU6050Configuration, part: MPU6050Part) {
        gPerLSB = 1 / configuration.accelRange.lsbPerG
        dpsPerLSB = 1 / configuration.gyroRange.lsbPerDegreePerSecond
        self.part = part
    }

    /// The int16 at `bytes[offset]` (high byte) and `bytes[offset + 1]` (low byte).
    @inline(__always)
    public static func word(_ bytes: [UInt8], at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))
    }

    /// Acceleration in g from the 6 bytes ACCEL_XOUT_H…ACCEL_ZOUT_L starting at `offset`.
    @inline(__always)
    public func acceleration(_ bytes: [UInt8], at offset: Int) -> SIMD3<Double> {
        SIMD3(
            Double(Self.word(bytes, at: offset)), Double(Self.word(bytes, at: offset + 2)),
            Double(Self.word(bytes, at: offset + 4))) * gPerLSB
    }

    /// Angular rate in °/s from the 6 bytes GYRO_XOUT_H…GYRO_ZOUT_L starting at `offset`.
    @inline(__always)
    public func angularRate(_ bytes: [UInt8], at offset: Int) -> SIMD3<Double> {
        SIMD3(
            Double(Self.word(bytes, at: offset)), Double(Self.word(bytes, at: offset + 2)),
            Double(Self.word(bytes, at: offset + 4))) * dpsPerLSB
    }

    /// Die temperature in °C from TEMP_OUT_H/L starting at `offset`.
    public func temperature(_ bytes: [UInt8], at offset: Int) -> Double {
        part.temperatureCelsius(raw: Self.word(bytes, at: offset))
    }
}
