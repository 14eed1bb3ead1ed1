import Fusion
import Sampling
import Sensor
import Synchronization

/// Guided measurements on the sensor: each opens and configures the sensor afresh (it may have
/// been unplugged and replaced since the last), then runs a `RangeOfMotionMeasurement` on the
/// sampling loop's queue, whose reports wait in a mailbox for the daemon's loop.
///
/// `@unchecked Sendable`: the calibration, the one thing that changes (from a calibration's
/// completion on its queue), is behind a mutex; the rest is set once.
public final class SensorMeasurements: GuidedMeasurementStarter, @unchecked Sendable {
    /// Opens the sensor (bus and driver) for one session.
    public typealias OpenSensor = () throws(MPU6050Error) -> MPU6050

    private let openSensor: OpenSensor
    private let configuration: MPU6050Configuration
    private let calibration: Mutex<Calibration?>
    private let pacing: Pacing

    /// How the sampling loop keeps time.
    public enum Pacing: Sendable {
        /// A Dispatch timer in real time: the hardware, and the simulator at real time.
        case realTime
        /// Sleeping on the sensor's own clock: a scaled or manual clock runs the session faster
        /// than real time.
        case sensorClock
    }

    /// - Parameters:
    ///   - configuration: The sensor settings (the configured sample rate).
    ///   - calibration: The sensor's calibration, if one was made.
    ///   - pacing: Real time, or the sensor's clock.
    public init(
        configuration: MPU6050Configuration, calibration: Calibration?, pacing: Pacing,
        openSensor: @escaping OpenSensor
    ) {
        self.openSensor = openSensor
        self.configuration = configuration
        self.calibration = Mutex(calibration)
        self.pacing = pacing
    }

    /// Uses `calibration` from the next session on (after the daemon calibrated the sensor).
    public func use(_ calibration: Calibration) {
        self.calibration.withLock { $0 = calibration }
    }

    public func startMeasurement(_ measurementProtocol: MeasurementProtocol) throws(MPU6050Error) -> any GuidedMeasurement {
        let sensor = try openSensor()
        try sensor.configure(configuration)
        let running = RunningSensorMeasurement()
        let measurement = RangeOfMotionMeasurement(
            sensor: sensor, calibration: calibration.withLock { $0 },
            parameters: SessionParameters(measurementProtocol: measurementProtocol),
            pacing: pacing == .realTime ? .dispatchTimer : .sleeping(sensor.clock),
            onProgress: { [running] phase in running.post(phase) })
        running.attach(measurement)
        measurement.start { [running] result in running.complete(result) }
        return running
    }
}

/// One running session's mailbox, filled on the sampling queue and emptied by the daemon's loop.
final class RunningSensorMeasurement: GuidedMeasurement, Sendable {
    private let events = Mutex<[GuidedMeasurementEvent]>([])
    private let measurement = Mutex<RangeOfMotionMeasurement?>(nil)

    func attach(_ running: RangeOfMotionMeasurement) {
        measurement.withLock { $0 = running }
    }

    func post(_ phase: MeasurementSession.Phase) {
        let event: GuidedMeasurementEvent?
        switch phase {
        case .settling: event = .holdStill
        case .ready: event = .go
        case .moving, .flexing: event = .moving
        case .readyToFlex: event = .flex
        // Back near the start: still the same movement for the cues, until it is still.
        case .returning: event = nil
        case .finished: event = nil  // the completion carries the result
        }
        if let event { events.withLock { $0.append(event) } }
    }

    func complete(_ result: Result<RangeOfMotionMeasurement.Report, MeasurementError>) {
        let event: GuidedMeasurementEvent
        switch result {
        case .success(let outcome):
            event = .finished(outcome.result)
        case .failure(.aborted):
            event = .aborted
        case .failure(let error):
            if case .sensor = error {
                event = .failed(error.description, sensorFault: true)
            } else {
                event = .failed(error.description, sensorFault: false)
            }
        }
        events.withLock { $0.append(event) }
        measurement.withLock { $0 = nil }
    }

    func takeEvents() -> [GuidedMeasurementEvent] {
        events.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }

    func stop() {
        measurement.withLock { $0 }?.stop()
    }

    func abort() {
        measurement.withLock { $0 }?.abort()
    }
}

/// Probes the sensor by reading WHO_AM_I, through a freshly opened bus.
public final class SensorIdentityProbe: SensorProbe {
    public let location: String
    private let openSensor: SensorMeasurements.OpenSensor

    public init(location: String, openSensor: @escaping SensorMeasurements.OpenSensor) {
        self.location = location
        self.openSensor = openSensor
    }

    public func problem() -> String? {
        do {
            _ = try openSensor().identify()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
