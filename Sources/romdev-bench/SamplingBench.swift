import Dispatch
import Foundation
import Fusion
import Sampling
import Sensor

#if canImport(Glibc)
import Glibc
#endif

/// The sampling loop's CPU share at 200 Hz in real time: guided measurements on the simulated
/// sensor behind the real driver, paced by the strict Dispatch timer, timed with getrusage (user +
/// system CPU of the whole process) over wall-clock time. The simulator computes every sample
/// (motion model, noise, FIFO) inside the same process, so its own cost is measured apart, offline,
/// and subtracted to estimate what the loop costs on hardware.
enum SamplingBench {
    static func run() {
        print("== sampling loop: CPU share in real time (200 Hz, simulated sensor, strict Dispatch timer) ==")
        let simulatorNanosecondsPerSample = simulatorCost()
        for tickSeconds in [0.05, 0.01] {
            realTime(tickSeconds: tickSeconds, simulatorNanosecondsPerSample: simulatorNanosecondsPerSample)
        }
        print("  with the thigh sensor (both FIFOs drained each tick, pairs aligned):")
        realTime(tickSeconds: 0.05, thigh: true, simulatorNanosecondsPerSample: simulatorNanosecondsPerSample)
        allocationsPerTick()
    }

    /// The argument that makes `romdev-bench` run only ``allocationProbe(ticks:)``.
    static let allocationProbeOption = "--allocation-probe"

    /// Ticks of the sampling path as it runs on a board (FIFO drain, driver, ticker, fusion
    /// session) on a manual clock, after a warm-up: what `allocationsPerTick` counts under
    /// valgrind. The simulator brings the driver up; then a `FIFOReplayBus` serves FIFO bytes
    /// recorded from it beforehand, so that the count is the product's alone.
    static func allocationProbe(ticks: Int) {
        do {
            let clock = ManualClock()
            let total = 20 + ticks
            // The same recording for any tick count, so it cancels out of the difference.
            let recorded = try SimulationScenario.kneeExtension(seed: 3).record(seconds: 30)
            guard total <= 580 else { throw CocoaError(.featureUnsupported) }
            let bus = FIFOReplayBus(
                simulator: SimulatedMPU6050(scenario: .kneeExtension(seed: 3), clock: clock), clock: clock,
                samples: recorded.samples, configuration: recorded.configuration)
            let sensor = try MPU6050(bus: bus, clock: clock)
            try sensor.configure(.standard)
            bus.startReplay()
            let ticker = SampleTicker(sensor: sensor, periodSeconds: 0.05, clock: clock)
            var session = MeasurementSession()
            for _ in 0..<total {
                clock.advance(by: 0.05)
                try ticker.tick { shank, _ in session.update(InertialSample(shank)) }
            }
            print(
                "ticks \(ticker.statistics.ticks), samples \(ticker.statistics.samples), lost \(ticker.statistics.lostSamples)"
            )
        } catch {
            print("allocation probe failed: \(error)")
            exit(1)
        }
    }

    /// Heap allocations per sampling tick, counted by valgrind (memcheck's heap summary) as the
    /// difference between a run of 400 ticks and one of 200, so start-up and warm-up cancel out.
    private static func allocationsPerTick() {
        func allocations(ticks: Int) -> Int? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/valgrind")
            process.arguments = [
                "--tool=memcheck", "--leak-check=no", CommandLine.arguments[0], allocationProbeOption, String(ticks),
            ]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            // "total heap usage: 1,234 allocs, 1,200 frees, 56,789 bytes allocated"
            guard process.terminationStatus == 0,
                let line = text.split(separator: "\n").first(where: {
                    $0.contains("total heap usage:")
                }), let field = line.split(separator: ":").last?.split(separator: " ").first
            else { return nil }
            return Int(field.replacingOccurrences(of: ",", with: ""))
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") else {
            print("  allocations per tick: skipped (valgrind is not installed)")
            return
        }
        guard let short = allocations(ticks: 200), let long = allocations(ticks: 400) else {
            print("  allocations per tick: valgrind run failed")
            return
        }
        print(
            String(
                format:
                    "  heap allocations per 50 ms tick (FIFO drain, driver, ticker, fusion; valgrind, 400 vs 200 ticks): %.2f (%d vs %d in all)",
                Double(long - short) / 200, long, short))
    }

    /// CPU time of the process so far, seconds (user + system), from `getrusage(RUSAGE_SELF)`.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Simulator + driver without the loop: knee-extension sessions on a manual clock, read every
    /// 50 ms. Returns nanoseconds of CPU per sample.
    private static func simulatorCost() -> Double {
        let sessions = 10
        var samples = 0
        let start = cpuSeconds()
        for seed in 0..<sessions {
            samples += (try? SimulationScenario.kneeExtension(seed: UInt64(seed)).record().samples.count) ?? 0
        }
        let perSample = (cpuSeconds() - start) * 1e9 / Double(max(1, samples))
        print(
            String(
                format:
                    "  simulator + driver alone (manual clock): %.0f ns CPU/sample = %.3f %% of a core at 200 Hz (%d samples)",
                perSample, perSample * 200 / 1e9 * 100, samples))
        return perSample
    }

    /// One guided measurement (a 12 s knee extension) in real time, on the shank's sensor or on
    /// both (the simulator's cost then counted for both boards).
    private static func realTime(tickSeconds: Double, thigh: Bool = false, simulatorNanosecondsPerSample: Double) {
        let clock = SystemClock()
        do {
            let adapter = SimulatedI2CAdapter(scenario: .kneeExtension(seed: 7), fittingThigh: thigh, clock: clock)
            let sensors = LegSensors(
                shank: try MPU6050(bus: adapter.open(), clock: clock),
                thigh: thigh ? try MPU6050(bus: adapter.open(), address: MPU6050.alternateAddress, clock: clock) : nil)
            try sensors.configure(.standard)
            let measurement = RangeOfMotionMeasurement(
                sensor: sensors.shank, thigh: sensors.thigh, calibration: nil, tickSeconds: tickSeconds)
            let wallStart = clock.now
            let cpuStart = cpuSeconds()
            let outcome = try measurement.run()
            let cpu = cpuSeconds() - cpuStart
            let wall = clock.now - wallStart
            let share = cpu / wall * 100
            let simulated = Double(outcome.sampling.samples + outcome.sampling.thighSamples)
            let simulatorShare = simulatorNanosecondsPerSample * simulated / 1e9 / wall * 100
            let s = outcome.sampling
            print(
                String(
                    format:
                        "  tick %2.0f ms: %.3f %% of a core (%.3f s CPU over %.2f s wall); minus the simulator's %.3f %%: "
                        + "loop + driver + fusion ≈ %.3f %%",
                    tickSeconds * 1000, share, cpu, wall, simulatorShare, share - simulatorShare))
            print(
                String(
                    format:
                        "           %d ticks, %d late, %d missed deadlines, %d overruns, longest tick %.2f ms; %d samples, %d lost; range %.1f°",
                    s.ticks, s.lateTicks, s.missedDeadlines, s.overruns, s.longestTickSeconds * 1000, s.samples,
                    s.lostSamples,
                    outcome.result.range))
            if thigh {
                print("           thigh: \(s.thighSamples) samples drained, \(s.thighLostSamples) lost")
            }
        } catch {
            print("  tick \(Int(tickSeconds * 1000)) ms: failed: \(error)")
        }
    }
}

/// The simulated sensor for bring-up, then FIFO bytes encoded beforehand from recorded samples,
/// released at 200 Hz by the clock: FIFO_COUNT, FIFO_R_W and INT_STATUS answered without
/// allocating, as a kernel driver fills the caller's buffer.
private final class FIFOReplayBus: I2CBus {
    let simulator: SimulatedMPU6050
    let clock: ManualClock
    private var bytes: [UInt8] = []
    private var position = 0
    private var replayStart: Double?
    private let rate: Double
    /// Accel and gyro, 2 bytes each: the records the driver configures (FIFO_EN = 0x78).
    static let recordSize = 12

    init(simulator: SimulatedMPU6050, clock: ManualClock, samples: [IMUSample], configuration: MPU6050Configuration) {
        self.simulator = simulator
        self.clock = clock
        rate = Double(configuration.sampleRateHz)
        for sample in samples {
            let a = sample.accelerationG * configuration.accelRange.lsbPerG
            let w = sample.angularRateDPS * configuration.gyroRange.lsbPerDegreePerSecond
            for value in [a.x, a.y, a.z, w.x, w.y, w.z] {
                let bits = UInt16(bitPattern: Int16(value.rounded()))
                bytes += [UInt8(bits >> 8), UInt8(bits & 0xFF)]
            }
        }
    }

    func startReplay() {
        replayStart = clock.now
    }

    var devicePath: String { simulator.devicePath }

    func functionality() throws(I2CError) -> I2CFunctionality { try simulator.functionality() }

    func selectAddress(_ address: UInt8) throws(I2CError) { try simulator.selectAddress(address) }

    func readByte(register: UInt8) throws(I2CError) -> UInt8 { try simulator.readByte(register: register) }

    func writeByte(_ value: UInt8, register: UInt8) throws(I2CError) {
        guard replayStart == nil else { return }
        try simulator.writeByte(value, register: register)
    }

    func readBlock(register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
        guard let start = replayStart else { return try simulator.readBlock(register: register, into: buffer) }
        switch register {
        case MPU6050Register.fifoCountHigh:
            let produced = min(bytes.count, Int(((clock.now - start) * rate).rounded(.down)) * Self.recordSize)
            let count = UInt16(min(1000, produced - position))
            buffer[0] = UInt8(count >> 8)
            buffer[1] = UInt8(count & 0xFF)
        case MPU6050Register.fifoReadWrite:
            for i in buffer.indices {
                buffer[i] = bytes[position]
                position += 1
            }
        default:
            for i in buffer.indices { buffer[i] = 0 }
        }
    }
}
