import LinuxSystem
import Testing

@testable import Sensor

/// The simulated adapter with one board or two: what answers where, and handles that keep their
/// own address.
@Suite struct SimulatedI2CAdapterTests {
    let clock = ManualClock()

    @Test func answersAt0x69OnlyWithTheThighBoardFitted() throws {
        let alone = SimulatedI2CAdapter(scenario: .kneeExtension(seed: 2), fittingThigh: false, clock: clock)
        #expect(
            throws: MPU6050Error.bus(
                I2CError(.read(count: 1), devicePath: "simulated-i2c", address: 0x69, register: 0x75, errno: .remoteIO))
        ) {
            try MPU6050(bus: alone.open(), address: 0x69, clock: clock).identify()
        }
        let both = SimulatedI2CAdapter(scenario: .kneeExtension(seed: 2), fittingThigh: true, clock: clock)
        #expect(try MPU6050(bus: both.open(), address: 0x69, clock: clock).identify() == .mpu6050)
        #expect(try MPU6050(bus: both.open(), address: 0x68, clock: clock).identify() == .mpu6050)
        #expect(both.board(at: 0x69)?.scenario.motion.segment == .thigh())
    }

    @Test func aMissingThighSensorIsRefusedBeforeTheShankIsReset() throws {
        let adapter = SimulatedI2CAdapter(scenario: .kneeExtension(seed: 2), fittingThigh: false, clock: clock)
        let sensors = LegSensors(
            shank: try MPU6050(bus: adapter.open(), clock: clock),
            thigh: try MPU6050(bus: adapter.open(), address: 0x69, clock: clock))
        #expect {
            try sensors.configure(.standard)
        } throws: { error in
            guard let error = error as? LegSensorError else { return false }
            return error.sensor == .thigh && error.isMissing
                && error.summary == "no MPU-6050 answers at 0x69 on simulated-i2c (the thigh sensor)"
                && error.hint?.contains("thigh_address = none") == true
        }
        // Identified but never reset or woken.
        #expect(sensors.shank.configuration == nil)
        let shankBoard = try #require(adapter.board(at: 0x68))
        #expect(shankBoard.registers[Int(MPU6050Register.powerManagement1)] == MPU6050Bits.sleep)
    }

    @Test func eachHandleKeepsItsOwnAddress() throws {
        let adapter = SimulatedI2CAdapter(scenario: .kneeExtension(seed: 5), fittingThigh: true, clock: clock)
        let sensors = LegSensors(
            shank: try MPU6050(bus: adapter.open(), clock: clock),
            thigh: try MPU6050(bus: adapter.open(), address: 0x69, clock: clock))
        try sensors.configure(.standard)
        var shankCount = 0, thighCount = 0
        for _ in 0..<20 {
            clock.advance(by: 0.05)
            shankCount += try sensors.shank.readSamples().samples.count
            thighCount += try sensors.thigh?.readSamples().samples.count ?? 0
        }
        // Each board's samples come from its own FIFO: about 200 each, the thigh's clock 0.4 % off,
        // and the shank's some 20 more, streaming since before the thigh's 0.1 s reset.
        #expect((210...230).contains(shankCount))
        #expect((190...205).contains(thighCount))
        #expect(adapter.board(at: 0x68)?.statistics.readTransactions ?? 0 > 20)
        #expect(adapter.board(at: 0x69)?.statistics.readTransactions ?? 0 > 20)
    }

    @Test func theThighBoardIsAnotherPartOnAClock0point4PercentApart() {
        for seed: UInt64 in [0, 1, 2, 3] {
            let shank = SimulationScenario.kneeArc(seed: seed)
            let thigh = shank.thighBoard()
            #expect(thigh.address == 0x69)
            #expect(abs(abs(thigh.errors.sampleClockError - shank.errors.sampleClockError) - 0.004) < 1e-12)
            #expect(abs(thigh.errors.sampleClockError) <= 0.01)
            #expect(thigh.errors.gyroOffsetDPS != shank.errors.gyroOffsetDPS)
            #expect(thigh.seed != shank.seed)
            #expect(thigh.motion == shank.motion.onThigh())
        }
    }
}
