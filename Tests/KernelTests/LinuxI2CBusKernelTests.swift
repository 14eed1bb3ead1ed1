import LinuxSystem
import Sensor
import XCTest

/// `LinuxI2CBus` against the kernel's i2c-dev and i2c-stub: what the adapter reports, byte and
/// block transfers, and the errors the kernel gives for an absent chip and a missing bus.
final class LinuxI2CBusKernelTests: XCTestCase {
    override func setUpWithError() throws {
        try KernelGuest.require()
    }

    func testStubAdapterIsFoundByNameUnderDev() throws {
        let path = try I2CStub.devicePath()
        XCTAssertTrue(path.hasPrefix("/dev/i2c-"), path)
        XCTAssertNotNil(Int(path.dropFirst("/dev/i2c-".count)), path)
        let bus = try LinuxI2CBus(path: path)
        XCTAssertEqual(bus.devicePath, path)
        try bus.close()
    }

    func testAdapterOffersWhatTheDriverNeedsButNoPlainI2C() throws {
        let functionality = try I2CStub.openBus().functionality()
        XCTAssertTrue(
            functionality.isSuperset(of: .mpu6050Driver), "I2C_FUNCS 0x\(String(functionality.rawValue, radix: 16))")
        // i2c-stub implements SMBus transfers only: no I2C_RDWR, no combined messages.
        XCTAssertFalse(functionality.contains(.plainI2C))
    }

    func testByteWritesReadBack() throws {
        let bus = try I2CStub.openBus()
        for value: UInt8 in [0x68, 0x00, 0xA5, 0xFF] {
            try bus.writeByte(value, register: MPU6050Register.whoAmI)
            XCTAssertEqual(try bus.readByte(register: MPU6050Register.whoAmI), value)
        }
        // Neighbours are separate registers.
        try bus.writeByte(0x11, register: 0x74)
        try bus.writeByte(0x22, register: 0x76)
        try bus.writeByte(0x68, register: MPU6050Register.whoAmI)
        XCTAssertEqual(try bus.readBlock(register: 0x74, count: 3), [0x11, 0x68, 0x22])
    }

    func testBlockReadsReturnConsecutiveRegistersUpToThirtyTwoBytes() throws {
        let bus = try I2CStub.openBus()
        let pattern = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        try I2CStub.seed(bus, pattern, from: 0x20)
        XCTAssertEqual(try bus.readBlock(register: 0x20, count: 1), Array(pattern[0..<1]))
        XCTAssertEqual(try bus.readBlock(register: 0x3B, count: 14), Array(pattern[0x1B..<0x29]))
        XCTAssertEqual(
            try bus.readBlock(register: 0x20, count: I2CBlock.maximumLength),
            Array(pattern[0..<I2CBlock.maximumLength]))
        XCTAssertEqual(try bus.readBlock(register: 0x40, count: 32), Array(pattern[32..<64]))
    }

    func testBlockReadCutShortByTheDeviceIsAnIOError() throws {
        let bus = try I2CStub.openBus()
        // The stub ends its block reads at register 0xFF, so this one returns 16 of 32 bytes.
        XCTAssertThrowsError(try bus.readBlock(register: 0xF0, count: 32)) { error in
            XCTAssertEqual(
                error as? I2CError,
                I2CError(
                    .read(count: 32), devicePath: bus.devicePath, address: I2CStub.address,
                    register: 0xF0, errno: .ioError))
        }
    }

    func testAbsentChipFailsTheTransferNamingAddressAndRegister() throws {
        let bus = try LinuxI2CBus(path: I2CStub.devicePath())
        // Selecting an address sends nothing on the bus, so it succeeds; the transfer fails.
        try bus.selectAddress(0x69)
        XCTAssertThrowsError(try bus.readByte(register: MPU6050Register.whoAmI)) { error in
            guard let error = error as? I2CError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.operation, .read(count: 1))
            XCTAssertEqual(error.address, 0x69)
            XCTAssertEqual(error.register, MPU6050Register.whoAmI)
            // i2c-stub answers ENODEV for an address without a chip; a real adapter reports the
            // missing ACK as EREMOTEIO (i2c-bcm2835) or ENXIO.
            XCTAssertEqual(error.errno, .noSuchDevice)
            XCTAssertEqual(error.hint?.hasPrefix("nothing acknowledged 0x69"), true, error.hint ?? "no hint")
            XCTAssertTrue(
                error.description.hasPrefix("i2c read of 1 byte at 0x75 from 0x69 on \(bus.devicePath): "),
                error.description)
        }
        XCTAssertThrowsError(try bus.writeByte(0x00, register: MPU6050Register.powerManagement1)) { error in
            XCTAssertEqual((error as? I2CError)?.address, 0x69)
        }
    }

    func testMissingBusFailsToOpenNamingThePath() throws {
        let number = try unusedBusNumber()
        let path = "/dev/i2c-\(number)"
        XCTAssertThrowsError(try LinuxI2CBus(path: path)) { error in
            XCTAssertEqual(error as? I2CError, I2CError(.open, devicePath: path, errno: .noSuchFileOrDirectory))
        }
        // The bus-number form also tries /dev/i2c/N, and still names /dev/i2c-N.
        XCTAssertThrowsError(try LinuxI2CBus(busNumber: number)) { error in
            XCTAssertEqual(error as? I2CError, I2CError(.open, devicePath: path, errno: .noSuchFileOrDirectory))
            XCTAssertEqual(
                (error as? I2CError)?.description,
                "cannot open \(path): No such file or directory (ENOENT)")
        }
    }

    private func unusedBusNumber() throws -> Int {
        let used = try SysfsFile.entries("/sys/bus/i2c/devices").compactMap { entry in
            entry.hasPrefix("i2c-") ? Int(entry.dropFirst(4)) : nil
        }
        return (used.max() ?? 0) + 100
    }
}
