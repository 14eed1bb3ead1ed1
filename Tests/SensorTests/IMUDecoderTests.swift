import Testing

@testable import Sensor

@Suite struct IMUDecoderTests {
    @Test func bigEndianTwosComplement() {
        #expect(IMUDecoder.word([0x7F, 0xFF], at: 0) == 32767)
        #expect(IMUDecoder.word([0x80, 0x00], at: 0) == -32768)
        #expect(IMUDecoder.word([0xFF, 0xFF], at: 0) == -1)
        #expect(IMUDecoder.word([0x00, 0x01], at: 0) == 1)
        #expect(IMUDecoder.word([0x12, 0x34, 0xFE, 0xDC], at: 2) == -292)
    }

    @Test(arguments: MPU6050Configuration.AccelRange.allCases)
    func accelerationAtEveryFullScale(range: MPU6050Configuration.AccelRange) throws {
        let decoder = IMUDecoder(configuration: try MPU6050Configuration(accelRange: range), part: .mpu6050)
        let lsb = Int16(range.lsbPerG)
        let bytes = fifoRecord([lsb, -lsb, 0])
        #expect(decoder.acceleration(bytes, at: 0) == SIMD3(1, -1, 0))
        let extremes = decoder.acceleration(fifoRecord([.max, .min, -1]), at: 0)
        #expect(abs(extremes.x - range.g) < 0.001)
        #expect(extremes.y == -range.g)
        #expect(extremes.z == -1 / range.lsbPerG)
    }

    @Test(arguments: MPU6050Configuration.GyroRange.allCases)
    func angularRateAtEveryFullScale(range: MPU6050Configuration.GyroRange) throws {
        let decoder = IMUDecoder(configuration: try MPU6050Configuration(gyroRange: range), part: .mpu6050)
        let rates = decoder.angularRate(fifoRecord([0, 0, 0, 1000, -1000, .min]), at: 6)
        #expect(abs(rates.x - 1000 / range.lsbPerDegreePerSecond) < 1e-9)
        #expect(abs(rates.y + 1000 / range.lsbPerDegreePerSecond) < 1e-9)
        // Full scale is nominal: −32768 LSB is within 0.5 % of −range.
        #expect(abs(rates.z / range.degreesPerSecond + 1) < 0.005)
    }
}
