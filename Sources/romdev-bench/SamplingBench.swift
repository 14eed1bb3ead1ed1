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
        print(String(
            format: "  simulator + driver alone (manual clock): %.0f ns CPU/sample = %.3f %% of a core at 200 Hz (%d samples)",
            perSample, perSample * 200 / 1e9 * 100, samples))
        return perSample
    }

    /// One guided measurement (a 12 s knee extension) in real time.
    private static func realTime(tickSeconds: Double, simulatorNanosecondsPerSample: Double) {
        let clock = SystemClock()
        do {
            let simulator = SimulatedMPU6050(scenario: .kneeExtension(seed: 7), clock: clock)
            let sensor = try MPU6050(bus: simulator, clock: clock)
            try sensor.configure(.standard)
            let measurement = RangeOfMotionMeasurement(sensor: sensor, calibration: nil, tickSeconds: tickSeconds)
            let wallStart = clock.now
            let cpuStart = cpuSeconds()
            let outcome = try measurement.run()
            let cpu = cpuSeconds() - cpuStart
            let wall = clock.now - wallStart
            let share = cpu / wall * 100
            let simulatorShare = simulatorNanosecondsPerSample * Double(outcome.sampling.samples) / 1e9 / wall * 100
            let s = outcome.sampling
            print(String(
                format: "  tick %2.0f ms: %.3f %% of a core (%.3f s CPU over %.2f s wall); minus the simulator's %.3f %%: "
                    + "loop + driver + fusion ≈ %.3f %%",
                tickSeconds * 1000, share, cpu, wall, simulatorShare, share - simulatorShare))
            print(String(
                format: "           %d ticks, %d late, %d missed deadlines, %d overruns, longest tick %.2f ms; %d samples, %d lost; range %.1f°",
                s.ticks, s.lateTicks, s.missedDeadlines, s.overruns, s.longestTickSeconds * 1000, s.samples, s.lostSamples,
                outcome.result.range))
        } catch {
            print("  tick \(Int(tickSeconds * 1000)) ms: failed: \(error)")
        }
    }
}
