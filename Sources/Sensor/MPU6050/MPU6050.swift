/// Driver for an MPU-6050-family IMU on an `I2CBus`.
///
/// Bring-up is `identify()` then `configure(_:)` (reset, wake on the PLL clock, filter, rate, full
/// scales, read back and verify, start the FIFO); afterwards `readSamples()` returns each sample
/// the sensor produced once, indexed on the sensor's clock. Not thread-safe: one owner polls it.
public final class MPU6050 {
    /// AD0 low.
    public static let defaultAddress: UInt8 = 0x68
    /// AD0 high.
    public static let alternateAddress: UInt8 = 0x69

    /// The adapter the sensor is on.
    public let bus: any I2CBus
    /// The sensor's 7-bit address, 0x68 or 0x69.
    public let address: UInt8
    /// The clock the driver waits on and places samples by after an overflow.
    public let clock: any MonotonicClock

    /// The part found by `identify()`.
    public private(set) var part: MPU6050Part?
    /// The configuration written and verified by `configure(_:)`.
    public private(set) var configuration: MPU6050Configuration?
    /// How long the FIFO may stay empty while sampling before `readSamples()` reports a stall.
    public var stallTimeoutSeconds: Double = 1
    /// How long every read may find the FIFO overflowed before `readSamples()` reports an overrun.
    public var overrunTimeoutSeconds: Double = 5

    var decoder: IMUDecoder?
    var stream = StreamState()
    /// One I2C block's worth of storage for the FIFO drain's reads (see `readIntoBuffer`).
    var readBuffer = [UInt8](repeating: 0, count: I2CBlock.maximumLength)

    /// - Parameters:
    ///   - clock: Waited on after reset and used to place samples after an overflow.
    /// - Throws: `MPU6050Error.invalidAddress` unless `address` is 0x68 or 0x69.
    public init(bus: any I2CBus, address: UInt8 = MPU6050.defaultAddress, clock: any MonotonicClock)
        throws(MPU6050Error)
    {
        guard address == Self.defaultAddress || address == Self.alternateAddress else {
            throw .invalidAddress(address)
        }
        self.bus = bus
        self.address = address
        self.clock = clock
    }

    /// Checks the adapter, selects the address and reads WHO_AM_I (0x75).
    /// - Returns: The part, also kept in `part`.
    /// - Throws: `.adapterLacksFunctionality`, `.bus` (EREMOTEIO when nothing answers),
    ///   `.unexpectedIdentity` naming the value read.
    @discardableResult
    public func identify() throws(MPU6050Error) -> MPU6050Part {
        let functionality = try io { () throws(I2CError) in try bus.functionality() }
        let missing = I2CFunctionality.mpu6050Driver.subtracting(functionality)
        guard missing.isEmpty else {
            throw .adapterLacksFunctionality(devicePath: bus.devicePath, missing: missing)
        }
        try io { () throws(I2CError) in try bus.selectAddress(address) }
        let whoAmI = try io { () throws(I2CError) in try bus.readByte(register: MPU6050Register.whoAmI) }
        guard let part = MPU6050Part(whoAmI: whoAmI) else {
            throw .unexpectedIdentity(whoAmI: whoAmI, address: address, devicePath: bus.devicePath)
        }
        self.part = part
        return part
    }

    /// Resets the sensor and applies `configuration`, reads it back, and starts sampling.
    ///
    /// Sequence: PWR_MGMT_1 = DEVICE_RESET, wait 100 ms, poll until the bit clears; PWR_MGMT_1 =
    /// CLKSEL 1 (awake, PLL); SMPLRT_DIV, CONFIG, GYRO_CONFIG, ACCEL_CONFIG (and ACCEL_CONFIG2 on
    /// parts that have it); INT_ENABLE = FIFO_OFLOW; read back 0x19… and PWR_MGMT_1; then, in FIFO
    /// mode, reset and enable the FIFO for accel + gyro (12-byte records).
    /// - Throws: `MPU6050Error`; `.configurationMismatch` names the first register that differs.
    public func configure(_ configuration: MPU6050Configuration) throws(MPU6050Error) {
        let part: MPU6050Part
        if let known = self.part { part = known } else { part = try identify() }
        self.configuration = nil

        try write(MPU6050Bits.deviceReset, to: MPU6050Register.powerManagement1)
        // Register map §4.28: the reset takes up to 100 ms; the bit reads 1 until it is done.
        clock.sleep(seconds: 0.1)
        var attempts = 0
        while try read(MPU6050Register.powerManagement1) & MPU6050Bits.deviceReset != 0 {
            attempts += 1
            guard attempts < 10 else { throw .resetTimedOut(address: address, devicePath: bus.devicePath) }
            clock.sleep(seconds: 0.01)
        }
        try write(MPU6050Bits.clockPLLGyroX, to: MPU6050Register.powerManagement1)

        var expected: [(register: UInt8, value: UInt8)] = [
            (MPU6050Register.sampleRateDivider, configuration.sampleRateDividerValue),
            (MPU6050Register.configuration, configuration.configurationValue),
            (MPU6050Register.gyroConfiguration, configuration.gyroConfigurationValue),
            (MPU6050Register.accelConfiguration, configuration.accelConfigurationValue),
        ]
        if part.hasAccelConfiguration2 {
            expected.append((MPU6050Register.accelConfiguration2, configuration.accelConfiguration2Value))
        }
        for (register, value) in expected {
            try write(value, to: register)
        }
        try write(MPU6050Bits.fifoOverflow, to: MPU6050Register.interruptEnable)

        let readBack = try readBlock(MPU6050Register.sampleRateDivider, count: expected.count)
        for ((register, wrote), read) in zip(expected, readBack) where wrote != read {
            throw .configurationMismatch(register: register, wrote: wrote, read: read)
        }
        let power = try read(MPU6050Register.powerManagement1)
        guard power == MPU6050Bits.clockPLLGyroX else {
            throw .configurationMismatch(
                register: MPU6050Register.powerManagement1, wrote: MPU6050Bits.clockPLLGyroX, read: power)
        }

        decoder = IMUDecoder(configuration: configuration, part: part)
        self.configuration = configuration
        switch configuration.readout {
        case .fifo: try startFIFO()
        case .registers: startPolling()
        }
    }

    /// Reads back the sensor's current configuration registers.
    /// - Returns: The configuration they describe, or nil when they hold values this driver
    ///   never writes (e.g. straight after a reset, with the gyro filter off).
    public func readConfiguration() throws(MPU6050Error) -> MPU6050Configuration? {
        let bytes = try readBlock(MPU6050Register.sampleRateDivider, count: 4)
        let user = try read(MPU6050Register.userControl)
        return MPU6050Configuration(
            sampleRateDivider: bytes[0], configuration: bytes[1], gyroConfiguration: bytes[2],
            accelConfiguration: bytes[3],
            readout: user & MPU6050Bits.userFIFOEnable != 0 ? .fifo : .registers)
    }

    // MARK: - Register access

    func read(_ register: UInt8) throws(MPU6050Error) -> UInt8 {
        try io { () throws(I2CError) in try bus.readByte(register: register) }
    }

    func readBlock(_ register: UInt8, count: Int) throws(MPU6050Error) -> [UInt8] {
        try io { () throws(I2CError) in try bus.readBlock(register: register, count: count) }
    }

    /// Reads `count` bytes into the front of `readBuffer`, the storage every FIFO drain reuses so
    /// that sampling does not allocate; the caller takes what it needs before the next read.
    func readIntoBuffer(_ register: UInt8, count: Int) throws(MPU6050Error) {
        try io { () throws(I2CError) in
            // The error leaves the closure by hand: Swift 6.0 types what a rethrowing closure
            // throws as `any Error`.
            var failure: I2CError?
            readBuffer.withUnsafeMutableBufferPointer { buffer in
                do throws(I2CError) {
                    try bus.readBlock(register: register, into: UnsafeMutableBufferPointer(rebasing: buffer[..<count]))
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
    }

    func write(_ value: UInt8, to register: UInt8) throws(MPU6050Error) {
        try io { () throws(I2CError) in try bus.writeByte(value, register: register) }
    }

    func io<T>(_ body: () throws(I2CError) -> T) throws(MPU6050Error) -> T {
        do {
            return try body()
        } catch {
            throw .bus(error)
        }
    }
}
