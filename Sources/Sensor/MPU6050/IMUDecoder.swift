/// Turns raw big-endian two's-complement words into g, °/s and °C for one configuration.
/// Pure: no I/O, so every full-scale setting is tested exhaustively.
public struct IMUDecoder: Sendable {
    public let gPerLSB: Double
    public let dpsPerLSB: Double
    public let part: MPU6050Part

    public init(configuration: MPU6050Configuration, part: MPU6050Part) {
        gPerLSB = 1 / configuration.accelRange.lsbPerG
        dpsPerLSB = 1 / configuration.gyroRange.lsbPerDegreePerSecond
        self.part = part
    }

    /// The int16 at `bytes[offset]` (high byte) and `bytes[offset + 1]` (low byte).
    @inline(__always)
    public static func word<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int) -> Int16
    where Bytes.Index == Int {
        Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))
    }

    /// Acceleration in g from the 6 bytes ACCEL_XOUT_H…ACCEL_ZOUT_L starting at `offset`.
    @inline(__always)
    public func acceleration<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int)
        -> SIMD3<Double> where Bytes.Index == Int
    {
        SIMD3(
            Double(Self.word(bytes, at: offset)), Double(Self.word(bytes, at: offset + 2)),
            Double(Self.word(bytes, at: offset + 4))) * gPerLSB
    }

    /// Angular rate in °/s from the 6 bytes GYRO_XOUT_H…GYRO_ZOUT_L starting at `offset`.
    @inline(__always)
    public func angularRate<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int)
        -> SIMD3<Double> where Bytes.Index == Int
    {
        SIMD3(
            Double(Self.word(bytes, at: offset)), Double(Self.word(bytes, at: offset + 2)),
            Double(Self.word(bytes, at: offset + 4))) * dpsPerLSB
    }

    /// Die temperature in °C from TEMP_OUT_H/L starting at `offset`.
    public func temperature<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int)
        -> Double where Bytes.Index == Int
    {
        part.temperatureCelsius(raw: Self.word(bytes, at: offset))
    }
}
