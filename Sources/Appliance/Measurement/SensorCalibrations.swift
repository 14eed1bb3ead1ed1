import CareStorage
import Fusion
import Sampling
import Sensor
import Synchronization

/// Guided calibrations on the sensor for the daemon: each opens and configures the sensor, runs a
/// `SensorCalibration` on the sampling loop's queue, saves the result, and hands it to the
/// measurements that follow.
public final class SensorCalibrations: GuidedCalibrationStarter {
    /// Writes the calibration file (atomically); throws when it cannot.
    public typealias Save = @Sendable (Calibration) throws -> Void

    private let openSensor: SensorMeasurements.OpenSensor
    private let configuration: MPU6050Configuration
    private let pacing: SensorMeasurements.Pacing
    private let save: Save
    private let measurements: SensorMeasurements

    /// - Parameters:
    ///   - measurements: Told the new calibration once it is saved.
    ///   - save: Writes the calibration file.
    public init(
        configuration: MPU6050Configuration, pacing: SensorMeasurements.Pacing, measurements: SensorMeasurements,
        save: @escaping Save, openSensor: @escaping SensorMeasurements.OpenSensor
    ) {
        self.openSensor = openSensor
        self.configuration = configuration
        self.pacing = pacing
        self.save = save
        self.measurements = measurements
    }

    public func startCalibration() throws -> any GuidedCalibrationRun {
        let sensor = try openSensor()
        try sensor.configure(configuration)
        let running = RunningSensorCalibration()
        let calibration = SensorCalibration(
            sensor: sensor, pacing: pacing == .realTime ? .dispatchTimer : .sleeping(sensor.clock),
            onStep: { [running] step in running.post(step) })
        running.attach(calibration)
        let save = save
        let measurements = measurements
        calibration.start { [running] result in
            switch result {
            case .success(let calibration):
                do {
                    try save(calibration)
                    measurements.use(calibration)
                    running.post(.saved(Self.summary(calibration)))
                } catch {
                    running.post(.failed("the calibration could not be saved: \(error)"))
                }
            case .failure(.aborted):
                running.post(.aborted)
            case .failure(let failure):
                running.post(.failed(failure.description))
            }
        }
        return running
    }

    static func summary(_ calibration: Calibration) -> String {
        func vector(_ v: Vector3) -> String {
            "(\(RangeOfMotionResult.degrees(v.x).dropLast()), \(RangeOfMotionResult.degrees(v.y).dropLast()), \(RangeOfMotionResult.degrees(v.z).dropLast()))"
        }
        return "gyro bias \(vector(calibration.gyroBias)) °/s"
            + (calibration.mounting == nil ? "" : ", shin mounting taken")
    }
}

/// One calibration's mailbox.
final class RunningSensorCalibration: GuidedCalibrationRun, Sendable {
    private let events = Mutex<[GuidedCalibrationEvent]>([])
    private let calibration = Mutex<SensorCalibration?>(nil)

    func attach(_ running: SensorCalibration) {
        calibration.withLock { $0 = running }
    }

    func post(_ step: GuidedCalibration.Step) {
        let event: GuidedCalibrationEvent?
        switch step {
        case .holdStill: event = .holdStill
        case .nextFace(let captured): event = .nextFace(captured: captured)
        case .strapOn: event = .strapOn
        case .swing: event = .swing
        case .finished: event = nil  // the completion says saved or failed
        }
        if let event { post(event) }
    }

    func post(_ event: GuidedCalibrationEvent) {
        events.withLock { $0.append(event) }
        switch event {
        case .saved, .failed, .aborted: calibration.withLock { $0 = nil }
        default: break
        }
    }

    func takeEvents() -> [GuidedCalibrationEvent] {
        events.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }

    func abort() {
        calibration.withLock { $0 }?.abort()
    }
}
