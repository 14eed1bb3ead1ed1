import Sensor
import Testing

@testable import Sampling

/// The per-tick work on a manual clock: what each tick delivers and how the ticks are counted.
@Suite struct SampleTickerTests {
    let clock = ManualClock()

    private func ticker(period: Double = 0.05) throws -> SampleTicker {
        let simulated = try SimulatedSensor(.kneeExtension(seed: 3), clock: clock)
        return SampleTicker(sensor: simulated.sensor, periodSeconds: period, clock: clock)
    }

    /// Runs ticks after the given waits and returns the delivered samples.
    private func run(_ ticker: SampleTicker, waits: [Double]) throws -> [IMUSample] {
        var delivered: [IMUSample] = []
        for wait in waits {
            clock.advance(by: wait)
            try ticker.tick { sample, _ in delivered.append(sample) }
        }
        return delivered
    }

    @Test func deliversEverySampleOnceWithItsSensorClockTime() throws {
        let ticker = try ticker()
        let samples = try run(ticker, waits: Array(repeating: 0.05, count: 40))
        #expect(samples.map(\.index) == Array(0..<samples.count))
        #expect(samples.count >= 395)
        for sample in samples {
            #expect(sample.timeSeconds == Double(sample.index) / 200)
        }
        #expect(ticker.statistics.ticks == 40)
        #expect(ticker.statistics.samples == samples.count)
        #expect(ticker.statistics.lateTicks == 0)
        #expect(ticker.statistics.missedDeadlines == 0)
        #expect(ticker.statistics.lostSamples == 0)
    }

    @Test func aStallShorterThanTheFIFOLosesNoSample() throws {
        let ticker = try ticker()
        // 0.4 s is 80 records of 12 bytes: inside the 1024-byte FIFO (0.43 s at 200 Hz).
        let waits = Array(repeating: 0.05, count: 5) + [0.4] + Array(repeating: 0.05, count: 5)
        let samples = try run(ticker, waits: waits)
        #expect(samples.map(\.index) == Array(0..<samples.count))
        #expect(ticker.statistics.lostSamples == 0)
        #expect(ticker.statistics.lateTicks == 1)
        #expect(ticker.statistics.missedDeadlines == 7)
    }

    @Test func aStallLongerThanTheFIFOReportsTheLostSamples() throws {
        let ticker = try ticker()
        let waits = Array(repeating: 0.05, count: 5) + [0.7] + Array(repeating: 0.05, count: 5)
        let samples = try run(ticker, waits: waits)
        let indices = samples.map(\.index)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
        #expect(ticker.statistics.lostSamples > 0)
        // Every index up to the last is either delivered or reported lost.
        #expect(samples.count + ticker.statistics.lostSamples == indices.last.map { $0 + 1 })
    }

    @Test func countsATickThatTakesLongerThanItsPeriodAsAnOverrun() throws {
        let ticker = try ticker()
        var slowed = false
        for _ in 0..<6 {
            clock.advance(by: 0.05)
            try ticker.tick { _, _ in
                if !slowed {
                    slowed = true
                    clock.advance(by: 0.08)  // the consumer blocks the loop
                }
            }
        }
        #expect(ticker.statistics.overruns == 1)
        #expect(ticker.statistics.longestTickSeconds >= 0.08)
        #expect(ticker.statistics.missedDeadlines >= 1)
    }

    @Test func aSensorFailureThrowsAndLosesNothingDecoded() throws {
        let simulated = try SimulatedSensor(
            .still(seed: 1), clock: clock, faults: [.ioError(afterSeconds: 0.4, transfers: 1)])
        let ticker = SampleTicker(sensor: simulated.sensor, periodSeconds: 0.05, clock: clock)
        var delivered: [Int] = []
        var failures = 0
        for _ in 0..<12 {
            clock.advance(by: 0.05)
            do {
                try ticker.tick { sample, _ in delivered.append(sample.index) }
            } catch {
                failures += 1
            }
        }
        #expect(failures == 1)
        #expect(delivered == Array(0..<delivered.count))
    }
}
