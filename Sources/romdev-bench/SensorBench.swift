import Foundation
import Sensor

/// Sensor figures: decoding cost, and the I2C traffic of the default configuration counted on the
/// simulated bus, with the bus occupancy it implies.
enum SensorBench {
    static func run() {
        print("== sensor ==")
        decoding()
        simulatedSessions()
        print("I2C traffic, steady state, simulated bus (60 s sensor time; bring-up excluded):")
        print("  readout            poll    trans/s   bytes/s  clocks/s  busy@100kHz  busy@400kHz")
        for interval in [0.02, 0.05, 0.1] {
            traffic(configuration: .standard, pollIntervalSeconds: interval)
        }
        traffic(configuration: MPU6050Configuration.standard.with(readout: .registers), pollIntervalSeconds: nil)
        print("  (clocks: 27 + 9 per byte for a register read, 27 per register write; 200 Hz, ±500 °/s, ±4 g)")
    }

    /// Decodes 12-byte FIFO records into `IMUSample`s, as the driver does.
    private static func decoding() {
        let decoder = IMUDecoder(configuration: .standard, part: .mpu6050)
        var random = SplitMix64(seed: 1)
        let records = 85  // one full FIFO
        let bytes = (0..<(records * 12)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let rounds = 20_000
        var sink = SIMD3<Double>.zero
        var samples: [IMUSample] = []
        samples.reserveCapacity(records)
        let start = DispatchTime.now().uptimeNanoseconds
        for round in 0..<rounds {
            samples.removeAll(keepingCapacity: true)
            for record in 0..<records {
                let offset = record * 12
                let index = round * records + record
                samples.append(
                    IMUSample(
                        index: index, timeSeconds: Double(index) / 200,
                        accelerationG: decoder.acceleration(bytes, at: offset),
                        angularRateDPS: decoder.angularRate(bytes, at: offset + 6), temperatureCelsius: 30))
            }
            sink += samples[round % records].accelerationG
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        let count = Double(rounds * records)
        print(
            String(
                format: "decode FIFO record → IMUSample: %.1f ns/sample (%d samples; checksum %.3f)",
                elapsed / count, rounds * records, sink.sum()))
    }

    /// Whole simulated sessions through the register-level simulator and the driver (what the
    /// fusion accuracy benchmark runs hundreds of times).
    private static func simulatedSessions() {
        let sessions = 20
        var samples = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for seed in 0..<sessions {
            samples += (try? SimulationScenario.kneeExtension(seed: UInt64(seed)).record().samples.count) ?? 0
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        print(
            String(
                format:
                    "simulated knee-extension session (driver + simulator, manual clock): %.1f ms/session, %.0f ns/sample (%d sessions, %d samples)",
                elapsed / Double(sessions) / 1e6, elapsed / Double(samples), sessions, samples))
    }

    private static func traffic(configuration: MPU6050Configuration, pollIntervalSeconds: Double?) {
        let clock = ManualClock()
        var scenario = SimulationScenario.still(seed: 1)
        scenario.errors.sampleClockError = 0
        let simulator = SimulatedMPU6050(scenario: scenario, clock: clock)
        let seconds = 60.0
        do {
            let sensor = try MPU6050(bus: simulator, clock: clock)
            try sensor.configure(configuration)
            let before = simulator.statistics
            var delivered = 0
            let start = clock.now
            try sensor.record(seconds: seconds, pollIntervalSeconds: pollIntervalSeconds) { batch in
                delivered += batch.samples.count
            }
            let elapsed = clock.now - start
            let after = simulator.statistics
            let transactions = Double(after.transactions - before.transactions) / elapsed
            let bytes = Double(after.bytesRead + after.bytesWritten - before.bytesRead - before.bytesWritten) / elapsed
            let clocks = Double(after.sclClocks - before.sclClocks) / elapsed
            let poll = pollIntervalSeconds.map { String(format: "%3.0f ms", $0 * 1000) } ?? "T/2   "
            let mode = configuration.readout.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)
            print(
                String(
                    format: "  %@ %@  %8.1f  %8.1f  %8.0f  %10.1f %%  %10.1f %%   (%d samples)",
                    mode as NSString, poll as NSString, transactions, bytes, clocks,
                    clocks / 100_000 * 100, clocks / 400_000 * 100, delivered))
        } catch {
            print("  \(configuration.readout.rawValue): failed: \(error)")
        }
    }
}
