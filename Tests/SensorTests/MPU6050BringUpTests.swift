import LinuxSystem
import Testing

@testable import Sensor

@Suite struct MPU6050BringUpTests {
    let bus = FakeI2CBus()
    let clock = ManualClock()

    @Test func initialisesWithTheExactTransfers() throws {
        let sensor = try MPU6050(bus: bus, clock: clock)
        try sensor.configure(.standard)
        #expect(
            bus.trace == [
                .functionality, .select(0x68), .read(0x75, count: 1),
                .write(0x6B, value: 0x80), .read(0x6B, count: 1), .write(0x6B, value: 0x01),
                .write(0x19, value: 4), .write(0x1A, value: 3), .write(0x1B, value: 0x08),
                .write(0x1C, value: 0x08), .write(0x38, value: 0x10),
                .read(0x19, count: 4), .read(0x6B, count: 1),
                .write(0x23, value: 0), .write(0x6A, value: 0), .write(0x6A, value: 0x04),
                .write(0x6A, value: 0x40), .write(0x23, value: 0x78),
            ])
        #expect(sensor.part == .mpu6050)
        #expect(sensor.configuration == .standard)
        #expect(clock.now == 0.1)
        #expect(try sensor.readConfiguration() == .standard)
    }

    @Test func mpu6500AlsoSetsTheAccelerometerFilter() throws {
        bus.registers[0x75] = 0x70
        let sensor = try MPU6050(bus: bus, clock: clock)
        try sensor.configure(try MPU6050Configuration(sampleRateHz: 100, lowPassFilter: .hz21))
        #expect(bus.trace.contains(.write(0x1D, value: 4)))
        #expect(bus.trace.contains(.read(0x19, count: 5)))
        #expect(sensor.part == .mpu6500)
    }

    @Test func registerReadoutLeavesTheFIFOOff() throws {
        let sensor = try MPU6050(bus: bus, clock: clock)
        try sensor.configure(MPU6050Configuration.standard.with(readout: .registers))
        #expect(!bus.trace.contains(.write(0x6A, value: 0x40)))
        bus.clearTrace()
        bus.registers[0x3A] = 0x01
        let batch = try sensor.readSamples()
        #expect(bus.trace == [.read(0x3A, count: 15)])
        #expect(batch.samples.count == 1)
    }

    @Test func waitsForTheResetToFinish() throws {
        bus.resetCompletes = false
        let sensor = try MPU6050(bus: bus, clock: clock)
        #expect(throws: MPU6050Error.resetTimedOut(address: 0x68, devicePath: "/dev/i2c-1")) {
            try sensor.configure(.standard)
        }
        #expect(bus.trace.filter { $0 == .read(0x6B, count: 1) }.count == 10)
    }

    @Test func unknownIdentityNamesTheValue() throws {
        bus.registers[0x75] = 0x72
        let sensor = try MPU6050(bus: bus, clock: clock)
        #expect(throws: MPU6050Error.unexpectedIdentity(whoAmI: 0x72, address: 0x68, devicePath: "/dev/i2c-1")) {
            try sensor.identify()
        }
        #expect(
            MPU6050Error.unexpectedIdentity(whoAmI: 0x72, address: 0x68, devicePath: "/dev/i2c-1").description
                .hasPrefix("unexpected WHO_AM_I 0x72 from 0x68 on /dev/i2c-1"))
    }

    @Test func checksTheAdapterBeforeRelyingOnBlockReads() throws {
        bus.adapterFunctionality = [.plainI2C, .readByteData, .writeByteData]
        let sensor = try MPU6050(bus: bus, clock: clock)
        #expect(
            throws: MPU6050Error.adapterLacksFunctionality(devicePath: "/dev/i2c-1", missing: .readI2CBlock)
        ) {
            try sensor.identify()
        }
        #expect(bus.trace == [.functionality])
    }

    @Test func nothingAtTheAddressIsARemoteIOError() throws {
        bus.deviceAddress = 0x69
        let sensor = try MPU6050(bus: bus, clock: clock)
        #expect {
            try sensor.identify()
        } throws: { error in
            guard case .bus(let bus) = error as? MPU6050Error else { return false }
            return bus.errno == .remoteIO && bus.register == 0x75 && bus.address == 0x68
        }
    }

    @Test func rejectsAddressesOtherThanAD0() {
        #expect(throws: MPU6050Error.invalidAddress(0x6A)) {
            _ = try MPU6050(bus: bus, address: 0x6A, clock: clock)
        }
        #expect(throws: Never.self) { _ = try MPU6050(bus: bus, address: 0x69, clock: clock) }
    }

    @Test func verifiesTheConfigurationReadBack() throws {
        bus.ignoredWrites = [0x1B]
        let sensor = try MPU6050(bus: bus, clock: clock)
        #expect(throws: MPU6050Error.configurationMismatch(register: 0x1B, wrote: 0x08, read: 0x00)) {
            try sensor.configure(.standard)
        }
        #expect(sensor.configuration == nil)
        #expect(throws: MPU6050Error.notConfigured) { try sensor.readSamples() }
    }

    @Test func busErrorsKeepTheirContext() throws {
        bus.fail(.remoteIO) { $0 == .read(0x19, count: 4) }
        let sensor = try MPU6050(bus: bus, clock: clock)
        #expect {
            try sensor.configure(.standard)
        } throws: { error in
            (error as? MPU6050Error)?.description
                == "i2c read of 4 bytes at 0x19 from 0x68 on /dev/i2c-1: Remote I/O error (EREMOTEIO)"
        }
    }
}
