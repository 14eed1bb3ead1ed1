/// Samples from a simulated session with the ground truth of each.
public struct SimulatedRecording: Sendable {
    /// The configuration the driver ran.
    public var configuration: MPU6050Configuration
    /// In index order, as the driver delivered them.
    public var samples: [IMUSample]
    /// Shank inclination from vertical (degrees) at each sample's instant; parallel to `samples`.
    public var truthInclinationDegrees: [Double]
    /// Samples lost to FIFO overflows.
    public var gaps: [SampleGap]
    /// Bus traffic of the whole session, bring-up included.
    public var statistics: BusStatistics
}

extension SimulationScenario {
    /// Runs the scenario through the register-level simulator and the real driver on a manual
    /// clock, so a session takes milliseconds instead of its real duration.
    /// - Parameters:
    ///   - seconds: Sensor-clock time to record; by default the motion's duration (or 10 s still).
    ///   - pollIntervalSeconds: Time between FIFO reads.
    ///   - pollJitterSeconds: Host timing jitter: each wait is lengthened by a uniform draw from
    ///     0 up to this (seeded from the scenario's seed). Above the FIFO's length (0.43 s at
    ///     200 Hz) waits overflow the FIFO and the recording has gaps.
    ///   - faults: Injected into the simulator before bring-up.
    /// - Throws: `MPU6050Error` if the driver fails (for instance on an injected fault).
    public func record(
        configuration: MPU6050Configuration = .standard, seconds: Double? = nil,
        pollIntervalSeconds: Double = 0.05, pollJitterSeconds: Double = 0, faults: [SimulatedFault] = []
    ) throws -> SimulatedRecording {
        let clock = JitteringClock(jitterSeconds: pollJitterSeconds, seed: seed)
        let simulator = SimulatedMPU6050(scenario: self, clock: clock)
        faults.forEach(simulator.inject)
        let sensor = try MPU6050(bus: simulator, address: address, clock: clock)
        try sensor.configure(configuration)
        let duration = seconds ?? (motion.durationSeconds > 0 ? motion.durationSeconds : 10)
        var recording = SimulatedRecording(
            configuration: configuration, samples: [], truthInclinationDegrees: [], gaps: [],
            statistics: BusStatistics())
        try sensor.record(seconds: duration, pollIntervalSeconds: pollIntervalSeconds) { batch in
            if let gap = batch.gap { recording.gaps.append(gap) }
            recording.samples += batch.samples
            for sample in batch.samples {
                recording.truthInclinationDegrees.append(
                    simulator.truthInclinationDegrees(forSampleIndex: sample.index) ?? .nan)
            }
        }
        recording.statistics = simulator.statistics
        return recording
    }
}

/// A manual clock whose waits run long by a seeded random amount, like a busy host's.
private final class JitteringClock: MonotonicClock {
    private let clock = ManualClock()
    private let jitterSeconds: Double
    private var random: SplitMix64

    init(jitterSeconds: Double, seed: UInt64) {
        self.jitterSeconds = jitterSeconds
        random = SplitMix64(seed: seed ^ 0x0A11_7E4D_0C10_C4E5)
    }

    var now: Double {
        clock.now
    }

    func sleep(seconds: Double) {
        clock.advance(by: seconds + (jitterSeconds > 0 ? random.nextUnit() * jitterSeconds : 0))
    }
}
