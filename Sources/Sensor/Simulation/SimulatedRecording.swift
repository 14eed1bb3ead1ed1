/// Samples from a simulated session with the ground truth of each.
public struct SimulatedRecording: Sendable {
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
    /// - Throws: `MPU6050Error` if the driver fails (for instance on an injected fault).
    public func record(
        configuration: MPU6050Configuration = .standard, seconds: Double? = nil,
        pollIntervalSeconds: Double = 0.05, faults: [SimulatedFault] = []
    ) throws -> SimulatedRecording {
        let clock = ManualClock()
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
