import Dispatch
import Sensor
import Synchronization
import Testing

@testable import Sampling

/// The loop on a real Dispatch timer: it checks behaviour (each sample once, in order), never timing.
@Suite struct SamplingLoopTests {
    @Test func aRealTimeLoopDeliversEverySampleOnceInOrder() throws {
        let clock = SystemClock()
        let simulated = try SimulatedSensor(.still(seed: 5), clock: clock)
        let ticker = SampleTicker(sensor: simulated.sensor, periodSeconds: 0.02, clock: clock)
        let loop = SamplingLoop(periodSeconds: 0.02, pacing: .dispatchTimer)
        let indices = Mutex<[Int]>([])
        let ended = Mutex<(any Error)??>(nil)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let unsafeTicker = ticker
        loop.start(
            tick: {
                var batch: [Int] = []
                try unsafeTicker.tick { sample, _ in batch.append(sample.index) }
                let count = indices.withLock {
                    $0 += batch
                    return $0.count
                }
                return count >= 60 ? .finish : .continue
            },
            completion: { error in
                ended.withLock { $0 = .some(error) }
                done.signal()
            })
        done.wait()
        let delivered = indices.withLock { $0 }
        #expect(delivered == Array(0..<delivered.count))
        #expect(delivered.count >= 60)
        #expect(ended.withLock { $0 }.map { $0 == nil } == true)
        #expect(ticker.statistics.samples == delivered.count)
    }

    @Test func cancelEndsTheLoopAndCompletesOnce() throws {
        let clock = ManualClock()
        let loop = SamplingLoop(periodSeconds: 0.05, pacing: .sleeping(clock))
        let ticks = Mutex(0)
        let completions = Mutex(0)
        let done = DispatchSemaphore(value: 0)
        loop.start(
            tick: {
                let count = ticks.withLock {
                    $0 += 1
                    return $0
                }
                if count == 3 { loop.cancel() }
                return .continue
            },
            completion: { _ in
                completions.withLock { $0 += 1 }
                done.signal()
            })
        done.wait()
        #expect(ticks.withLock { $0 } == 3)
        #expect(completions.withLock { $0 } == 1)
    }
}
