import Testing

@testable import Sensor

/// The simulated stream must depend on the seed and the sample number only, never on when the
/// host happened to talk to the sensor: `--seed N` promises the same samples every run.
@Suite struct SimulatedStreamTests {
    /// A manual clock whose `sleep` number `stalledSleep` lasts `stallSeconds` longer: a host that
    /// is descheduled between two reads.
    final class StallingClock: MonotonicClock {
        let base = ManualClock()
        let stalledSleep: Int
        let stallSeconds: Double
        private var sleeps = 0

        init(stalledSleep: Int = 0, stallSeconds: Double = 0) {
            self.stalledSleep = stalledSleep
            self.stallSeconds = stallSeconds
        }

        var now: Double { base.now }

        func sleep(seconds: Double) {
            sleeps += 1
            base.advance(by: seconds + (sleeps == stalledSleep ? stallSeconds : 0))
        }
    }

    /// The simulator behind a host that is slow on chosen transfers: each transfer advances the
    /// shared clock by `delay(transfer number, register)`.
    final class SlowHostBus: I2CBus {
        let simulator: SimulatedMPU6050
        let clock: StallingClock
        let delay: (Int, UInt8) -> Double
        private var transfers = 0

        init(scenario: SimulationScenario, clock: StallingClock, delay: @escaping (Int, UInt8) -> Double) {
            self.clock = clock
            simulator = SimulatedMPU6050(scenario: scenario, clock: clock)
            self.delay = delay
        }

        var devicePath: String { simulator.devicePath }

        private func pause(_ register: UInt8) {
            transfers += 1
            clock.base.advance(by: delay(transfers, register))
        }

        func functionality() throws(I2CError) -> I2CFunctionality { try simulator.functionality() }

        func selectAddress(_ address: UInt8) throws(I2CError) { try simulator.selectAddress(address) }

        func readByte(register: UInt8) throws(I2CError) -> UInt8 {
            defer { pause(register) }
            return try simulator.readByte(register: register)
        }

        func writeByte(_ value: UInt8, register: UInt8) throws(I2CError) {
            defer { pause(register) }
            try simulator.writeByte(value, register: register)
        }

        func readBlock(register: UInt8, into bytes: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
            defer { pause(register) }
            try simulator.readBlock(register: register, into: bytes)
        }
    }

    struct Run {
        var samples: [IMUSample] = []
        var gaps: [SampleGap] = []
    }

    static func run(
        _ scenario: SimulationScenario, seconds: Double, clock: StallingClock = StallingClock(),
        delay: @escaping (Int, UInt8) -> Double = { _, _ in 0 }
    ) throws -> Run {
        let bus = SlowHostBus(scenario: scenario, clock: clock, delay: delay)
        let sensor = try MPU6050(bus: bus, clock: bus.clock)
        try sensor.configure(.standard)
        var run = Run()
        try sensor.record(seconds: seconds) { batch in
            run.samples += batch.samples
            if let gap = batch.gap { run.gaps.append(gap) }
        }
        return run
    }

    /// What a sample measured, without the temperature (read once per FIFO drain, at host time).
    static func readings(_ samples: some Sequence<IMUSample>) -> [[Double]] {
        samples.map { s in
            [
                s.accelerationG.x, s.accelerationG.y, s.accelerationG.z, s.angularRateDPS.x, s.angularRateDPS.y,
                s.angularRateDPS.z,
            ]
        }
    }

    /// Where two reading lists first differ (nil when equal), so a failure prints one sample.
    static func firstDifference(_ a: [[Double]], _ b: [[Double]]) -> Int? {
        if let index = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] }) { return index }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    @Test func aHostSlowerThanASamplePeriodDuringBringUpChangesNothing() throws {
        let scenario = SimulationScenario.kneeExtension(seed: 12)
        let prompt = try Self.run(scenario, seconds: 2)
        // 7 ms per transfer: samples fall due between every two configuration writes, including
        // between enabling the FIFO and choosing what it records.
        let slow = try Self.run(scenario, seconds: 2) { _, _ in 0.007 }
        #expect(prompt.gaps.isEmpty && slow.gaps.isEmpty)
        #expect(prompt.samples.count == 400)
        #expect(slow.samples.map(\.index) == prompt.samples.map(\.index))
        #expect(Self.firstDifference(Self.readings(slow.samples), Self.readings(prompt.samples)) == nil)
    }

    @Test func samplesAfterAnOverflowAreTheOnesAPromptHostGets() throws {
        let scenario = SimulationScenario.kneeExtension(seed: 5)
        let prompt = try Self.run(scenario, seconds: 4)
        // One wait between two drains lasts 1.5 s longer, far beyond the FIFO's 0.43 s.
        let stalled = try Self.run(scenario, seconds: 4, clock: StallingClock(stalledSleep: 10, stallSeconds: 1.5))
        let gap = try #require(stalled.gaps.first)
        #expect(stalled.gaps.count == 1)
        #expect(gap.count > 200)

        let before = stalled.samples.filter { $0.index < gap.startIndex }
        #expect(Self.firstDifference(Self.readings(before), Self.readings(prompt.samples.prefix(before.count))) == nil)

        // After the gap the driver places indices from the host clock (within a sample), so match
        // the readings themselves: they must be a run of the prompt host's, unshifted by the loss.
        let after = Self.readings(stalled.samples.filter { $0.index >= gap.startIndex + gap.count })
        #expect(after.count > 100)
        let all = Self.readings(prompt.samples)
        let start = try #require(all.firstIndex(of: after[0]))
        #expect(abs(start - (gap.startIndex + gap.count)) <= 1)
        let common = min(after.count, all.count - start)
        #expect(common > 100)
        #expect(Self.firstDifference(Array(after.prefix(common)), Array(all[start..<(start + common)])) == nil)
    }

    /// A 1.5 s stall right after the host's 15th transfer to `register` (FIFO_COUNT, FIFO_R_W or
    /// INT_STATUS): wherever in a drain the host stalls, one gap and no corrupted sample.
    @Test(arguments: [MPU6050Register.fifoCountHigh, MPU6050Register.fifoReadWrite, MPU6050Register.interruptStatus])
    func aStallAnywhereInADrainLosesOnlyTheOverwrittenSamples(register stalled: UInt8) throws {
        let scenario = SimulationScenario.kneeExtension(seed: 8)
        let prompt = try Self.run(scenario, seconds: 4)
        var transfers = 0
        let stalledRun = try Self.run(scenario, seconds: 4) { _, register in
            guard register == stalled else { return 0 }
            transfers += 1
            return transfers == 15 ? 1.5 : 0
        }
        #expect(stalledRun.gaps.count == 1)
        let gap = try #require(stalledRun.gaps.first)
        let all = Self.readings(prompt.samples)
        let before = stalledRun.samples.filter { $0.index < gap.startIndex }
        #expect(Self.firstDifference(Self.readings(before), Array(all.prefix(before.count))) == nil)
        let after = Self.readings(stalledRun.samples.filter { $0.index >= gap.startIndex + gap.count })
        let start = try #require(after.first.flatMap { all.firstIndex(of: $0) })
        #expect(abs(start - (gap.startIndex + gap.count)) <= 1)
        let common = min(after.count, all.count - start)
        #expect(common > 100)
        #expect(Self.firstDifference(Array(after.prefix(common)), Array(all[start..<(start + common)])) == nil)
    }

    @Test func noiseStreamsOfNeighbouringSamplesDiffer() {
        var first = SimulatedMPU6050.noise(seed: 0, sample: 0)
        var second = SimulatedMPU6050.noise(seed: 0, sample: 1)
        let a = (0..<12).map { _ in first.next() }
        let b = (0..<12).map { _ in second.next() }
        #expect(Set(a).isDisjoint(with: b))
    }
}
