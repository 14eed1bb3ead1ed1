import Fusion
import Sampling
import Sensor

extension Recording {
    /// A two-sensor recording of a simulated leg: both boards read through the register-level
    /// simulator and the driver on one manual clock, each on its own sample clock, paired sample for
    /// sample as the appliance pairs them (``SensorPairAligner``), with the shank's true inclination.
    /// - Parameters:
    ///   - shank: The shank board's scenario.
    ///   - thigh: The thigh board's, usually `shank.thighBoard(mounting:seed:)`.
    ///   - seconds: Shank samples to record, in seconds of its sample clock.
    /// - Throws: `MPU6050Error` if a driver fails.
    public static func simulatedLeg(
        shank: SimulationScenario, thigh: SimulationScenario, seconds: Double
    ) throws -> Recording {
        let clock = ManualClock()
        let configuration = MPU6050Configuration.standard
        let shankSimulator = SimulatedMPU6050(scenario: shank, clock: clock)
        let shankSensor = try MPU6050(bus: shankSimulator, address: shank.address, clock: clock)
        try shankSensor.configure(configuration)
        // Each simulated board runs its movement from its own FIFO's start. The thigh's board is
        // brought up after the shank's, the same steps taking the same time, so its FIFO starts
        // that much later, and its leg must be that far into the same movement.
        var thigh = thigh
        thigh.motion.startSeconds += clock.now
        let thighSensor = try MPU6050(
            bus: SimulatedMPU6050(scenario: thigh, clock: clock), address: thigh.address, clock: clock)
        try thighSensor.configure(configuration)
        let total = Int((seconds * Double(configuration.sampleRateHz)).rounded())
        var aligner = SensorPairAligner(nominalPeriod: configuration.samplePeriodSeconds)
        var pairs: [SensorPairAligner.Pair] = []
        pairs.reserveCapacity(total)
        while pairs.count < total {
            clock.sleep(seconds: 0.05)
            let shankBatch = try shankSensor.readSamples()
            let thighBatch = try thighSensor.readSamples()
            aligner.add(shank: shankBatch.samples, thigh: thighBatch.samples, drainedAt: clock.now) {
                pairs.append($0)
            }
        }
        let used = pairs.prefix(total)
        return Recording(
            samples: used.map { InertialSample($0.shank) }, temperatures: used.map(\.shank.temperatureCelsius),
            thighSamples: used.map { InertialSample($0.thigh) },
            truthAngles: used.map { shankSimulator.truthInclinationDegrees(forSampleIndex: $0.shank.index) ?? .nan })
    }
}
