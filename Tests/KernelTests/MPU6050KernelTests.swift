import Sensor
import XCTest

/// The MPU-6050 driver through the real `/dev/i2c-N`, against i2c-stub holding the register values
/// a sensor would: identification, the configuration written and read back, and decoding of the
/// data registers. The stub has no FIFO: MPU6050FIFOKernelTests reads one from mpu6050-sim.
final class MPU6050KernelTests: XCTestCase {
    private var bus: LinuxI2CBus!

    override func setUpWithError() throws {
        try KernelGuest.require()
        bus = try I2CStub.openBus()
        try I2CStub.seedPowerOnState(bus)
    }

    func testIdentifiesThePartFromWhoAmI() throws {
        for part in [MPU6050Part.mpu6050, .mpu6500, .icm20602] {
            try bus.writeByte(part.whoAmI, register: MPU6050Register.whoAmI)
            let sensor = try MPU6050(bus: bus, clock: SystemClock())
            XCTAssertEqual(try sensor.identify(), part)
            XCTAssertEqual(sensor.part, part)
        }
    }

    func testUnknownIdentityIsRefusedNamingValueAddressAndBus() throws {
        try bus.writeByte(0x00, register: MPU6050Register.whoAmI)
        let sensor = try MPU6050(bus: bus, clock: SystemClock())
        XCTAssertThrowsError(try sensor.identify()) { error in
            XCTAssertEqual(
                error as? MPU6050Error,
                .unexpectedIdentity(whoAmI: 0x00, address: I2CStub.address, devicePath: bus.devicePath))
        }
    }

    func testAbsentSensorFailsIdentificationWithTheBusError() throws {
        let sensor = try MPU6050(bus: bus, address: MPU6050.alternateAddress, clock: SystemClock())
        XCTAssertThrowsError(try sensor.identify()) { error in
            guard case .bus(let busError)? = error as? MPU6050Error else { return XCTFail("\(error)") }
            XCTAssertEqual(busError.address, MPU6050.alternateAddress)
            XCTAssertEqual(busError.register, MPU6050Register.whoAmI)
            XCTAssertEqual(busError.devicePath, bus.devicePath)
        }
    }

    func testConfigurationIsWrittenAndReadsBack() throws {
        let clock = ResetCompletingClock(chip: try I2CStub.openBus(), whoAmI: MPU6050Part.mpu6050.whoAmI)
        let sensor = try MPU6050(bus: bus, clock: clock)
        let configuration = try MPU6050Configuration(
            sampleRateHz: 100, lowPassFilter: .hz21, gyroRange: .dps1000, accelRange: .g8, readout: .registers)
        try sensor.configure(configuration)

        XCTAssertEqual(clock.completedResets, 1)
        XCTAssertEqual(sensor.configuration, configuration)
        XCTAssertEqual(try sensor.readConfiguration(), configuration)
        XCTAssertEqual(try bus.readByte(register: MPU6050Register.powerManagement1), MPU6050Bits.clockPLLGyroX)
        XCTAssertEqual(try bus.readByte(register: MPU6050Register.interruptEnable), MPU6050Bits.fifoOverflow)
    }

    func testFIFOReadoutEnablesTheFIFOForAccelAndGyro() throws {
        let clock = ResetCompletingClock(chip: try I2CStub.openBus(), whoAmI: MPU6050Part.mpu6050.whoAmI)
        let sensor = try MPU6050(bus: bus, clock: clock)
        try sensor.configure(.standard)

        XCTAssertEqual(try sensor.readConfiguration(), .standard)
        XCTAssertEqual(
            try bus.readByte(register: MPU6050Register.fifoEnable), MPU6050Bits.fifoAccel | MPU6050Bits.fifoGyro)
        XCTAssertEqual(try bus.readByte(register: MPU6050Register.userControl), MPU6050Bits.userFIFOEnable)
    }

    func testNewerPartGetsItsAccelerometerFilterToo() throws {
        try bus.writeByte(MPU6050Part.mpu6500.whoAmI, register: MPU6050Register.whoAmI)
        let clock = ResetCompletingClock(chip: try I2CStub.openBus(), whoAmI: MPU6050Part.mpu6500.whoAmI)
        let sensor = try MPU6050(bus: bus, clock: clock)
        let configuration = MPU6050Configuration.standard.with(readout: .registers)
        try sensor.configure(configuration)

        XCTAssertEqual(sensor.part, .mpu6500)
        XCTAssertEqual(
            try bus.readByte(register: MPU6050Register.accelConfiguration2),
            try bus.readByte(register: MPU6050Register.configuration) & 0x07)
        XCTAssertEqual(try sensor.readConfiguration(), configuration)
    }

    func testResetThatNeverEndsIsReported() throws {
        // Left alone, the stub keeps DEVICE_RESET set forever, as a sensor stuck in reset would.
        let sensor = try MPU6050(bus: bus, clock: SystemClock())
        XCTAssertThrowsError(try sensor.configure(.standard)) { error in
            XCTAssertEqual(
                error as? MPU6050Error, .resetTimedOut(address: I2CStub.address, devicePath: bus.devicePath))
        }
        XCTAssertNil(sensor.configuration)
    }

    func testRegisterReadoutDecodesTheDataRegisters() throws {
        let clock = ResetCompletingClock(chip: try I2CStub.openBus(), whoAmI: MPU6050Part.mpu6050.whoAmI)
        let sensor = try MPU6050(bus: bus, clock: clock)
        let configuration = MPU6050Configuration.standard.with(readout: .registers)
        try sensor.configure(configuration)

        // Nothing new until DATA_RDY is set.
        XCTAssertEqual(try sensor.readSamples().samples, [])

        let accel: [Int16] = [4096, -8192, 16_000]
        let temperature: Int16 = -1234
        let gyro: [Int16] = [655, -131, .max]
        let words = accel + [temperature] + gyro
        let bytes = words.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
        try I2CStub.seed(bus, bytes, from: MPU6050Register.accelXHigh)
        try bus.writeByte(MPU6050Bits.dataReady, register: MPU6050Register.interruptStatus)

        let samples = try sensor.readSamples().samples
        XCTAssertEqual(samples.count, 1)
        let sample = try XCTUnwrap(samples.first)
        for axis in 0..<3 {
            XCTAssertEqual(
                sample.accelerationG[axis], Double(accel[axis]) / configuration.accelRange.lsbPerG, accuracy: 1e-12)
            XCTAssertEqual(
                sample.angularRateDPS[axis], Double(gyro[axis]) / configuration.gyroRange.lsbPerDegreePerSecond,
                accuracy: 1e-12)
        }
        XCTAssertEqual(
            sample.temperatureCelsius, MPU6050Part.mpu6050.temperatureCelsius(raw: temperature), accuracy: 1e-12)
    }
}
