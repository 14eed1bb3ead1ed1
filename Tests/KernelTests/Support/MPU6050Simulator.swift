import Sensor

/// The guest's mpu6050-sim adapter (Guest/mpu6050-sim): an MPU-6050 at 0x68 that samples into its
/// FIFO at the rate it is configured for, playing a motion profile written to debugfs.
enum MPU6050Simulator {
    static let address: UInt8 = 0x68
    static let adapterName = "MPU-6050 simulator"
    static let profilePath = "/sys/kernel/debug/mpu6050-sim/profile"
    static let playedPath = "/sys/kernel/debug/mpu6050-sim/played"

    /// What the sensor measures at one sample, in physical units.
    struct Record {
        var accelerationG: SIMD3<Double>
        var temperatureCelsius = 25.0
        var angularRateDPS: SIMD3<Double>
    }

    static func devicePath() throws -> String {
        try I2CAdapter.devicePath(named: adapterName)
    }

    static func openBus() throws -> LinuxI2CBus {
        try I2CAdapter.openBus(named: adapterName, address: address)
    }

    /// Replaces the profile: from the next sample on, one record per sample, then the last for ever.
    static func play(_ records: [Record]) throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * 28)
        func append(_ value: Double, scale: Double) {
            let word = UInt32(bitPattern: Int32((value * scale).rounded()))
            for shift in stride(from: 0, to: 32, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
        }
        for record in records {
            for axis in 0..<3 { append(record.accelerationG[axis], scale: 1e6) }
            append(record.temperatureCelsius, scale: 1e3)
            for axis in 0..<3 { append(record.angularRateDPS[axis], scale: 1e3) }
        }
        try SysfsFile.write(bytes: bytes, to: profilePath)
    }

    /// Records played since the profile was written or the sensor reset.
    static func played() throws -> Int {
        Int(try SysfsFile.read(playedPath)) ?? -1
    }
}
