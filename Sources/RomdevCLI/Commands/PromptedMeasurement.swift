import Fusion
import LinuxSystem
import Sampling
import Sensor

/// One measurement session on a sensor source, apart from the store: bring-up, the guided
/// session on the sampling loop, and the patient's prompts. `romdev measure` stores what it
/// returns; another front end (a daemon's control socket) can replace this one step.
struct PromptedMeasurement {
    let source: SensorSource
    let calibration: Calibration?
    /// The simulated sensor's clock, or nil for real time (see `CommandContext.sensorClock`).
    let clock: (any MonotonicClock)?
    /// Which knee, for the prompts.
    let limb: String
    let measurementProtocol: MeasurementProtocol

    /// Runs the session to its end.
    /// - Parameter prompt: Receives one line per phase, on the sampling loop's queue while the
    ///   calling thread waits.
    /// - Throws: `CommandFailure` when the sensor cannot be brought up or fails mid-session.
    func run(prompt: @escaping @Sendable (String) -> Void) throws -> RangeOfMotionMeasurement.Report {
        let clock = clock ?? SystemClock()
        let sensors = try source.openConfiguredSensors(clock: clock).sensors
        let limb = limb
        let measurementProtocol = measurementProtocol
        let measurement = RangeOfMotionMeasurement(
            sensor: sensors.shank, thigh: sensors.thigh, calibration: calibration,
            parameters: SessionParameters(measurementProtocol: measurementProtocol),
            pacing: self.clock == nil ? .dispatchTimer : .sleeping(clock),
            onProgress: { phase in prompt(Self.prompt(for: phase, limb: limb, protocol: measurementProtocol)) })
        do {
            return try measurement.run()
        } catch {
            switch error {
            case .sensor(let sensorError, let samples):
                throw CommandFailure(
                    "the measurement failed after \(samples) samples", why: sensorError.description,
                    hint: sensorError.hint)
            case .aborted, .noSamples:
                throw CommandFailure("the measurement ended without a result", why: error.description)
            }
        }
    }

    /// What the patient is asked to do in each phase (the ResearchKit knee task's instructions).
    static func prompt(
        for phase: MeasurementSession.Phase, limb: String, protocol measurementProtocol: MeasurementProtocol
    ) -> String {
        switch phase {
        case .settling:
            "Sit on the edge of a chair, the sensor strapped to the front of your \(limb) shin below the knee, "
                + "foot on the floor. Hold still..."
        case .ready:
            switch measurementProtocol {
            case .extension: "Ready: extend your \(limb) knee as far as you can, then lower it back and hold still."
            case .arc:
                "Ready (step 1 of 2): extend your \(limb) knee as far as you can, then lower it back and hold still."
            }
        case .moving: "Measuring: lower your leg back to the start and hold still."
        case .readyToFlex:
            "Step 2 of 2: slide your \(limb) foot back under the chair as far as you can, then bring it forward "
                + "to the start and hold still."
        case .flexing: "Measuring: bring your foot forward to the start and hold still."
        case .returning: "Back near the start: hold still."
        case .finished(.returned): "Done: the leg is back and still."
        case .finished(.returnedUnsteady): "Done: the leg is back, but it did not come to rest (the result is flagged)."
        case .finished(.stopped): "Stopped."
        case .finished(.timedOut): "Time-out: the session ended without the leg coming back to rest."
        }
    }
}
