import LinuxSystem
import Testing

@testable import Sensor

@Suite struct SimulatedMPU6050Tests {
    let clock = ManualClock()

    private func simulator(_ scenario: SimulationScenario = .still(seed: 3)) throws -> SimulatedMPU6050 {
        let simulator = SimulatedMPU6050(scenario: scenario, clock: clock)
        try simulator.selectAddress(0x68)
        return simulator
    }

    @Test func powersUpAsleepWithItsIdentity() throws {
        let sim = try simulator()
        #expect(try sim.readByte(register: 0x6B) == 0x40)
        #expect(try sim.readByte(register: 0x75) == 0x68)
        #expect(try sim.readByte(register: 0x19) == 0)
        var scenario = SimulationScenario.still()
        scenario.part = .icm20602
        #expect(try simulator(scenario).readByte(register: 0x75) == 0x12)
    }

    @Test func sleepsUntilWokenAndSamplesAtTheConfiguredRate() throws {
        var scenario = SimulationScenario.still()
        scenario.errors = .ideal  // no sample-clock error
        let sim = try simulator(scenario)
        try sim.writeByte(0x40, register: 0x6A)
        try sim.writeByte(0x78, register: 0x23)
        clock.advance(by: 1)
        #expect(try sim.readBlock(register: 0x72, count: 2) == [0, 0])  // asleep
        try sim.writeByte(9, register: 0x19)  // 100 Hz
        try sim.writeByte(3, register: 0x1A)
        try sim.writeByte(0x01, register: 0x6B)
        clock.advance(by: 0.5)
        let count = try sim.readBlock(register: 0x72, count: 2)
        #expect(Int(count[0]) << 8 | Int(count[1]) == 50 * 12)
    }

    /// The gyro of a part sensitive to acceleration reads that sensitivity times the specific
    /// force: at rest, a zero that moves with the pose.
    @Test func theGyroReadsItsSensitivityToAcceleration() throws {
        var scenario = SimulationScenario.still(inclinationDegrees: 30)
        scenario.errors = .ideal
        scenario.errors.gyroAccelerationSensitivity = SensitivityMatrix(
            rows: SIMD3(0.5, -0.3, 0.4), SIMD3(0.2, 0.6, -0.5), SIMD3(-0.4, 0.3, 0.7))
        let sim = try simulator(scenario)
        try sim.writeByte(0x01, register: 0x6B)
        try sim.writeByte(3, register: 0x1A)
        clock.advance(by: 0.1)
        func words(_ register: UInt8) throws -> SIMD3<Double> {
            let b = try sim.readBlock(register: register, count: 6)
            func word(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(b[i]) << 8 | UInt16(b[i + 1]))) }
            return SIMD3(word(0), word(2), word(4))
        }
        let force = try words(0x3B) / 16384, rate = try words(0x43) / 131
        #expect(abs((force * force).sum().squareRoot() - 1) < 1e-3)
        let expected = scenario.errors.gyroAccelerationSensitivity * force
        #expect(abs(rate - expected).max() <= 1 / 131.0)
        #expect(abs(rate).max() > 0.3)
    }

    @Test func fifoOverflowsLikeTheChip() throws {
        let sim = try simulator()
        try sim.writeByte(0x01, register: 0x6B)  // awake, divider 0, DLPF 0: 8 kHz
        try sim.writeByte(0x78, register: 0x23)
        try sim.writeByte(0x40, register: 0x6A)
        clock.advance(by: 0.05)
        #expect(try sim.readByte(register: 0x3A) & 0x10 == 0x10)
        #expect(try sim.readByte(register: 0x3A) == 0)  // cleared by reading
        #expect(try sim.readBlock(register: 0x72, count: 2) == [0x04, 0x00])
        try sim.writeByte(0x04, register: 0x6A)
        #expect(try sim.readBlock(register: 0x72, count: 2) == [0, 0])
        #expect(try sim.readByte(register: 0x6A) == 0)  // FIFO_RESET clears itself
    }

    @Test func emptyFIFOReadsRepeatTheLastByte() throws {
        let sim = try simulator()
        try sim.writeByte(0x01, register: 0x6B)
        try sim.writeByte(0x08, register: 0x23)  // accel only: 6-byte records
        try sim.writeByte(0x40, register: 0x6A)
        clock.advance(by: 0.0011)  // one sample at 1 kHz (DLPF 0: 8 kHz / 1 → many)
        let count = try sim.readBlock(register: 0x72, count: 2)
        let bytes = Int(count[0]) << 8 | Int(count[1])
        #expect(bytes % 6 == 0 && bytes > 0)
        var drained: [UInt8] = []
        while drained.count < bytes {
            drained += try sim.readBlock(register: 0x74, count: min(32, bytes - drained.count))
        }
        #expect(try sim.readBlock(register: 0x74, count: 3) == [UInt8](repeating: drained.last!, count: 3))
    }

    @Test func deviceResetRestoresPowerOnValues() throws {
        let sim = try simulator()
        try sim.writeByte(0x01, register: 0x6B)
        try sim.writeByte(0x18, register: 0x1B)
        try sim.writeByte(0x80, register: 0x6B)
        #expect(try sim.readByte(register: 0x6B) == 0x40)
        #expect(try sim.readByte(register: 0x1B) == 0)
    }

    @Test func fullScaleSettingsScaleAndSaturate() throws {
        var scenario = SimulationScenario.still()
        scenario.errors = .ideal
        let sim = try simulator(scenario)
        try sim.writeByte(0x01, register: 0x6B)
        for range in MPU6050Configuration.AccelRange.allCases {
            try sim.writeByte(range.rawValue << 3, register: 0x1C)
            clock.advance(by: 0.01)
            let z = IMUDecoder.word(try sim.readBlock(register: 0x3F, count: 2), at: 0)
            #expect(Double(z) == range.lsbPerG)
        }
    }

    @Test func wrongAddressIsNotAcknowledged() throws {
        let sim = SimulatedMPU6050(scenario: .still(), clock: clock)
        try sim.selectAddress(0x69)
        #expect(
            throws: I2CError(
                .read(count: 1), devicePath: "simulated-i2c", address: 0x69, register: 0x75, errno: .remoteIO)
        ) {
            try sim.readByte(register: 0x75)
        }
    }

    @Test func countsTrafficAndClocks() throws {
        let sim = try simulator()
        _ = try sim.readBlock(register: 0x3B, count: 14)
        try sim.writeByte(1, register: 0x6B)
        #expect(sim.statistics.transactions == 2)
        #expect(sim.statistics.bytesRead == 14)
        #expect(sim.statistics.sclClocks == 153 + 27)
    }
}

@Suite struct SimulatorDeterminismTests {
    @Test(arguments: [UInt64(0), 1, 99, .max])
    func aSeedReplaysTheSameBytes(seed: UInt64) throws {
        func bytes() throws -> [UInt8] {
            let clock = ManualClock()
            let sim = SimulatedMPU6050(scenario: .kneeExtension(seed: seed), clock: clock)
            let sensor = try MPU6050(bus: sim, clock: clock)
            try sensor.configure(.standard)
            var out: [UInt8] = []
            for _ in 0..<20 {
                clock.advance(by: 0.05)
                out += try sim.readBlock(register: 0x3B, count: 14)
            }
            return out
        }
        #expect(try bytes() == bytes())
    }

    @Test func datasheetErrorsStayWithinTolerance() {
        for seed in UInt64(0)..<200 {
            let errors = SensorErrorModel.datasheet(seed: seed)
            #expect(abs(errors.gyroOffsetDPS).max() <= 20)
            #expect(abs(errors.accelOffsetG.x) <= 0.05 && abs(errors.accelOffsetG.z) <= 0.08)
            #expect(abs(errors.gyroSensitivity.scaleError).max() <= 0.03 + 1e-12)
            #expect(abs(errors.accelSensitivity.scaleError).max() <= 0.03 + 1e-12)
            for m in [errors.gyroSensitivity, errors.accelSensitivity] {
                let offDiagonal = [m.row0.y, m.row0.z, m.row1.x, m.row1.z, m.row2.x, m.row2.y]
                #expect(offDiagonal.allSatisfy { abs($0) <= 0.02 })
                #expect(offDiagonal.contains { $0 != 0 })
            }
            #expect(abs(errors.sampleClockError) <= 0.01)
            let g = errors.gyroAccelerationSensitivity
            #expect([g.row0, g.row1, g.row2].allSatisfy { abs($0).max() <= 0.3 / 3.0.squareRoot() + 1e-12 })
        }
        // A typical axis reads about 0.1 °/s per g, the datasheet's figure: the median row over
        // 600 is 0.088.
        let rows = (UInt64(0)..<200).flatMap { seed -> [Double] in
            let g = SensorErrorModel.datasheet(seed: seed).gyroAccelerationSensitivity
            return [g.row0, g.row1, g.row2].map { ($0 * $0).sum().squareRoot() }
        }.sorted()
        #expect((0.08...0.12).contains(rows[rows.count / 2]))
        #expect(SensorErrorModel.datasheet(seed: 1) != SensorErrorModel.datasheet(seed: 2))
        // Uncalibrated, a datasheet part lying flat rarely reads 1 g: offsets and sensitivity move it.
        let offBy2Percent = (UInt64(0)..<200).filter { seed in
            let errors = SensorErrorModel.datasheet(seed: seed)
            let flat = errors.accelSensitivity * SIMD3(0, 0, 1) + errors.accelOffsetG
            return abs((flat * flat).sum().squareRoot() - 1) > 0.02
        }
        #expect(offBy2Percent.count > 60)
    }

    @Test func splitMix64KnownSequence() {
        // Reference values of SplitMix64 seeded with 0.
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }
}

private func abs(_ v: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(Swift.abs(v.x), Swift.abs(v.y), Swift.abs(v.z))
}
