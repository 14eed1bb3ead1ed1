/// A validated sensor configuration: sample rate, low-pass filter, full-scale ranges, readout mode.
///
/// The defaults (200 Hz, ~44 Hz low-pass, ±500 °/s, ±4 g, FIFO) suit seated knee extension:
/// shank rates stay below a few hundred °/s, and the FIFO keeps sample instants on the sensor's
/// clock and rides out 0.4 s of host stalls.
public struct MPU6050Configuration: Equatable, Sendable, CustomStringConvertible {
    /// Gyroscope full scale, GYRO_CONFIG FS_SEL[4:3].
    public enum GyroRange: UInt8, CaseIterable, Sendable {
        case dps250 = 0, dps500, dps1000, dps2000

        /// Full scale in °/s (the range is ± this).
        public var degreesPerSecond: Double {
            [250, 500, 1000, 2000][Int(rawValue)]
        }

        /// Sensitivity in LSB per °/s (product spec §6.1).
        public var lsbPerDegreePerSecond: Double {
            [131, 65.5, 32.8, 16.4][Int(rawValue)]
        }
    }

    /// Accelerometer full scale, ACCEL_CONFIG AFS_SEL[4:3].
    public enum AccelRange: UInt8, CaseIterable, Sendable {
        case g2 = 0, g4, g8, g16

        /// Full scale in g (the range is ± this).
        public var g: Double {
            [2, 4, 8, 16][Int(rawValue)]
        }

        /// Sensitivity in LSB per g (product spec §6.2).
        public var lsbPerG: Double {
            [16384, 8192, 4096, 2048][Int(rawValue)]
        }
    }

    /// The digital low-pass filter, DLPF_CFG in CONFIG (and A_DLPF_CFG in ACCEL_CONFIG2 on parts
    /// that have it), named by accelerometer bandwidth. DLPF_CFG 0 (260 Hz, gyro at 8 kHz) is left
    /// out: it aliases at the rates this driver offers.
    public enum LowPassFilter: UInt8, CaseIterable, Sendable {
        case hz184 = 1, hz94, hz44, hz21, hz10, hz5

        /// Accelerometer bandwidth in Hz (register map §4.3).
        public var accelBandwidthHz: Double {
            [0, 184, 94, 44, 21, 10, 5][Int(rawValue)]
        }
    }

    /// How samples are read.
    public enum Readout: String, Sendable {
        /// From the on-chip FIFO in batches: sample instants on the sensor's clock, nothing lost
        /// while the host stalls for less than the FIFO's length.
        case fifo
        /// Burst reads of the data registers, polled: sample instants follow host timing. The
        /// fallback for parts or adapters where the FIFO misbehaves.
        case registers
    }

    /// Output rate in Hz: 1 kHz divided by an integer 1...250, so one of 4, 5, 8, 10, 20, 25, 40, 50,
    /// 100, 125, 200, 250, 500, 1000.
    public let sampleRateHz: Int
    /// The digital low-pass filter for gyro and accelerometer.
    public let lowPassFilter: LowPassFilter
    /// Gyroscope full scale.
    public let gyroRange: GyroRange
    /// Accelerometer full scale.
    public let accelRange: AccelRange
    /// FIFO batches or polled registers.
    public let readout: Readout

    /// - Throws: `MPU6050ConfigurationError.unsupportedSampleRate` unless 1000 / `sampleRateHz` is
    ///   a whole number from 1 to 250.
    public init(
        sampleRateHz: Int = 200, lowPassFilter: LowPassFilter = .hz44, gyroRange: GyroRange = .dps500,
        accelRange: AccelRange = .g4, readout: Readout = .fifo
    ) throws(MPU6050ConfigurationError) {
        guard (4...1000).contains(sampleRateHz), 1000 % sampleRateHz == 0 else {
            throw .unsupportedSampleRate(sampleRateHz)
        }
        self.init(
            validRate: sampleRateHz, lowPassFilter: lowPassFilter, gyroRange: gyroRange,
            accelRange: accelRange, readout: readout)
    }

    private init(
        validRate: Int, lowPassFilter: LowPassFilter, gyroRange: GyroRange, accelRange: AccelRange,
        readout: Readout
    ) {
        sampleRateHz = validRate
        self.lowPassFilter = lowPassFilter
        self.gyroRange = gyroRange
        self.accelRange = accelRange
        self.readout = readout
    }

    /// 200 Hz, ~44 Hz low-pass, ±500 °/s, ±4 g, FIFO readout.
    public static let standard = MPU6050Configuration(
        validRate: 200, lowPassFilter: .hz44, gyroRange: .dps500, accelRange: .g4, readout: .fifo)

    /// The same configuration with another readout mode.
    public func with(readout: Readout) -> MPU6050Configuration {
        MPU6050Configuration(
            validRate: sampleRateHz, lowPassFilter: lowPassFilter, gyroRange: gyroRange,
            accelRange: accelRange, readout: readout)
    }

    /// Seconds between samples on the sensor's clock (nominal; the PLL is good to about ±1 %).
    public var samplePeriodSeconds: Double {
        1 / Double(sampleRateHz)
    }

    public var description: String {
        "\(sampleRateHz) Hz, low-pass \(Int(lowPassFilter.accelBandwidthHz)) Hz, "
            + "±\(Int(gyroRange.degreesPerSecond)) °/s, ±\(Int(accelRange.g)) g, \(readout.rawValue)"
    }

    // MARK: - Register values

    /// SMPLRT_DIV: 1 kHz gyro output rate (DLPF on) / (1 + divider).
    var sampleRateDividerValue: UInt8 {
        UInt8(1000 / sampleRateHz - 1)
    }

    /// CONFIG: EXT_SYNC_SET 0 (FSYNC off), DLPF_CFG.
    var configurationValue: UInt8 {
        lowPassFilter.rawValue
    }

    /// GYRO_CONFIG: no self-test, FS_SEL (and FCHOICE_B 0 on newer parts).
    var gyroConfigurationValue: UInt8 {
        gyroRange.rawValue << 3
    }

    /// ACCEL_CONFIG: no self-test, AFS_SEL.
    var accelConfigurationValue: UInt8 {
        accelRange.rawValue << 3
    }

    /// ACCEL_CONFIG2: ACCEL_FCHOICE_B 0 (filter on), A_DLPF_CFG the same code as the gyro's.
    var accelConfiguration2Value: UInt8 {
        lowPassFilter.rawValue
    }

    /// Rebuilds a configuration from register values read back, or nil if they are not ones this
    /// driver writes.
    init?(
        sampleRateDivider: UInt8, configuration: UInt8, gyroConfiguration: UInt8,
        accelConfiguration: UInt8, readout: Readout
    ) {
        guard let filter = LowPassFilter(rawValue: configuration & 0x07),
            configuration & 0x38 == 0,
            1000 % (Int(sampleRateDivider) + 1) == 0, sampleRateDivider < 250,
            let gyro = GyroRange(rawValue: (gyroConfiguration >> 3) & 0x03),
            let accel = AccelRange(rawValue: (accelConfiguration >> 3) & 0x03)
        else { return nil }
        self.init(
            validRate: 1000 / (Int(sampleRateDivider) + 1), lowPassFilter: filter, gyroRange: gyro,
            accelRange: accel, readout: readout)
    }
}

/// A configuration the sensor cannot run.
public enum MPU6050ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The rate is outside 4–1000 Hz or 1000 Hz is not a whole multiple of it.
    case unsupportedSampleRate(Int)

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate):
            "unsupported sample rate \(rate) Hz: use 1000 Hz divided by a whole number from 1 to 250 "
                + "(e.g. 100, 125, 200, 250, 500, 1000)"
        }
    }
}
