import LinuxSystem
import Testing

@testable import Sensor

@Suite struct MPU6050FIFOTests {
    let bus = FakeI2CBus()
    let clock = ManualClock()

    private func configuredSensor() throws -> MPU6050 {
        let sensor = try MPU6050(bus: bus, clock: clock)
        try sensor.configure(.standard)
        bus.clearTrace()
        return sensor
    }

    /// Record `n` of a recognisable pattern: accel x = n × 8192 / 8 (n/8 g), gyro z = n × 131 (2n °/s).
    private func record(_ n: Int16) -> [UInt8] {
        fifoRecord([n * 1024, 0, 8192, 0, 0, n * 131])
    }

    @Test func drainsWholeRecordsInChunksOfAtMost32Bytes() throws {
        let sensor = try configuredSensor()
        bus.fifo = (0..<3).flatMap { record(Int16($0)) }
        bus.registers[0x41] = 0xFD  // TEMP_OUT = −521: 35 °C
        bus.registers[0x42] = 0xF7
        let batch = try sensor.readSamples()
        #expect(
            bus.trace == [.read(0x72, count: 2), .read(0x74, count: 32), .read(0x74, count: 4), .read(0x3A, count: 9)])
        #expect(batch.gap == nil)
        #expect(batch.samples.map(\.index) == [0, 1, 2])
        #expect(batch.samples.map(\.timeSeconds) == [0, 0.005, 0.010])
        #expect(batch.samples[2].accelerationG == SIMD3(0.25, 0, 1))
        #expect(batch.samples[2].angularRateDPS == SIMD3(0, 0, 4))
        #expect(abs(batch.samples[0].temperatureCelsius - 35) < 0.01)
    }

    @Test func leavesAnIncompleteRecordInTheFIFO() throws {
        let sensor = try configuredSensor()
        bus.fifo = record(0) + record(1) + Array(record(2).prefix(5))
        #expect(try sensor.readSamples().samples.map(\.index) == [0, 1])
        #expect(bus.trace.suffix(2) == [.read(0x74, count: 24), .read(0x3A, count: 9)])
        #expect(bus.fifo.count == 5)
        bus.fifo += Array(record(2).dropFirst(5)) + record(3)
        let next = try sensor.readSamples()
        #expect(next.samples.map(\.index) == [2, 3])
        #expect(next.samples[1].angularRateDPS.z == 6)
    }

    @Test func aFailedChunkLosesNothingAndRepeatsNothing() throws {
        let sensor = try configuredSensor()
        bus.fifo = (0..<5).flatMap { record(Int16($0)) }  // 60 bytes: chunks 32 + 28
        bus.fail(.ioError) { $0 == .read(0x74, count: 28) }
        #expect(throws: MPU6050Error.self) { try sensor.readSamples() }
        // 32 bytes were read: two records decoded, 8 bytes of the third kept.
        #expect(bus.fifo.count == 28)
        let batch = try sensor.readSamples()
        #expect(batch.samples.map(\.index) == [0, 1, 2, 3, 4])
        #expect(batch.samples.map(\.angularRateDPS.z) == [0, 2, 4, 6, 8])
        #expect(bus.trace.suffix(3) == [.read(0x72, count: 2), .read(0x74, count: 28), .read(0x3A, count: 9)])
    }

    @Test func overflowResetsTheFIFOAndReportsTheGap() throws {
        let sensor = try configuredSensor()
        bus.fifo = (0..<4).flatMap { record(Int16($0)) }
        #expect(try sensor.readSamples().samples.count == 4)
        // 0.5 s later, 100 samples were due but the FIFO overflowed.
        clock.advance(by: 0.5)
        bus.registers[0x3A] = 0x10
        bus.fifo = [UInt8](repeating: 0xAB, count: 1024)
        bus.clearTrace()
        let batch = try sensor.readSamples()
        #expect(
            bus.trace == [
                .read(0x72, count: 2),
                .write(0x6A, value: 0), .write(0x6A, value: 0x04), .write(0x6A, value: 0x40),
                // Clears the FIFO_OFLOW latched through the reset.
                .read(0x3A, count: 1),
            ])
        #expect(batch.samples.isEmpty)
        #expect(batch.gap == SampleGap(startIndex: 4, count: 100))
        bus.registers[0x3A] = 0
        bus.fifo = record(9)
        #expect(try sensor.readSamples().samples.map(\.index) == [104])
    }

    @Test func anOverflowWhileTheRecordsWereReadDropsThemAll() throws {
        let sensor = try configuredSensor()
        bus.fifo = (0..<2).flatMap { record(Int16($0)) }
        #expect(try sensor.readSamples().samples.map(\.index) == [0, 1])
        // A stall in the middle of the next drain: FIFO_OFLOW is set by the time INT_STATUS is read,
        // so the oldest bytes went while the records were read and they may be misaligned.
        clock.advance(by: 0.5)
        bus.fifo = (2..<7).flatMap { record(Int16($0)) }
        bus.registers[0x3A] = 0x10
        bus.clearTrace()
        let batch = try sensor.readSamples()
        #expect(batch.samples.isEmpty)
        #expect(batch.gap == SampleGap(startIndex: 2, count: 100))
        #expect(
            bus.trace == [
                .read(0x72, count: 2), .read(0x74, count: 32), .read(0x74, count: 28), .read(0x3A, count: 9),
                .write(0x6A, value: 0), .write(0x6A, value: 0x04), .write(0x6A, value: 0x40), .read(0x3A, count: 1),
            ])
        bus.registers[0x3A] = 0
        bus.fifo = record(9)
        #expect(try sensor.readSamples().samples.map(\.index) == [102])
    }

    @Test func aFullFIFOCountsAsOverflowWithoutTheFlag() throws {
        let sensor = try configuredSensor()
        clock.advance(by: 1)
        bus.fifo = [UInt8](repeating: 0, count: 1024)
        let batch = try sensor.readSamples()
        #expect(batch.gap == SampleGap(startIndex: 0, count: 200))
    }

    @Test func anEmptyFIFOForTooLongIsAStall() throws {
        let sensor = try configuredSensor()
        clock.advance(by: 0.5)
        #expect(try sensor.readSamples().samples.isEmpty)
        clock.advance(by: 0.6)
        #expect {
            try sensor.readSamples()
        } throws: { error in
            guard let error = error as? MPU6050Error, case .fifoStalled(let address, let path, let seconds) = error
            else { return false }
            // With two sensors on the bus, the message says whose FIFO stalled.
            return abs(seconds - 1.1) < 1e-9 && address == 0x68 && path == bus.devicePath
                && error.description.hasPrefix(
                    "the FIFO of the sensor at 0x68 on \(bus.devicePath) delivered no samples")
        }
    }
}
