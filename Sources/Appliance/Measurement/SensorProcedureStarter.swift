import CareStorage
import Fusion
import LinuxSystem
import Sampling
import Sensor
import Synchronization

/// Guided measurements and calibrations on the sensor for the daemon: each opens and configures
/// the sensor afresh (it may have been unplugged and replaced since the last), runs on the
/// sampling loop's queue, and leaves its reports in a ``GuidedRunMailbox`` for the daemon's loop.
/// A calibration is saved, then used by the measurements that follow.
///
/// `@unchecked Sendable`: the calibration, the one thing that changes (from a calibration's
/// completion on its queue), is behind a mutex; the rest is set once.
public final class SensorProcedureStarter: GuidedMeasurementStarter, GuidedCalibrationStarter, @unchecked Sendable {
    /// Opens the sensors (a bus handle and a driver each: the shank's, and the thigh's when one is
    /// configured) for one procedure: a measurement following the protocol given, which a simulated
    /// patient plays, or (nil) a calibration or a probe.
    public typealias OpenSensor = (_ measuring: MeasurementProtocol?) throws(MPU6050Error) -> LegSensors
    /// Writes the calibration file (atomically).
    public typealias SaveCalibration = @Sendable (Calibration) throws(AtomicFile.WriteError) -> Void

    private let openSensor: OpenSensor
    private let configuration: MPU6050Configuration
    private let calibration: Mutex<Calibration?>
    private let pacing: Pacing
    private let saveCalibration: SaveCalibration

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
    ///   - saveCalibration: Writes the calibration file.
    public init(
        configuration: MPU6050Configuration, calibration: Calibration?, pacing: Pacing,
        saveCalibration: @escaping SaveCalibration, openSensor: @escaping OpenSensor
    ) {
        self.openSensor = openSensor
        self.configuration = configuration
        self.calibration = Mutex(calibration)
        self.pacing = pacing
        self.saveCalibration = saveCalibration
    }

    /// Opens and configures the sensors alike; a configured thigh sensor that does not answer
    /// fails here, its error naming its address and bus, before either is reset.
    private func openConfiguredSensors(
        measuring: MeasurementProtocol?
    ) throws(MPU6050Error) -> (LegSensors, SamplingLoop.Pacing) {
        let sensors = try openSensor(measuring)
        do throws(LegSensorError) { try sensors.configure(configuration) } catch { throw error.error }
        return (sensors, pacing == .realTime ? .dispatchTimer : .sleeping(sensors.shank.clock))
    }

    public func startMeasurement(
        _ measurementProtocol: MeasurementProtocol
    ) throws(MPU6050Error) -> any GuidedRun<GuidedMeasurementEvent> {
        let (sensors, pacing) = try openConfiguredSensors(measuring: measurementProtocol)
        let mailbox = GuidedRunMailbox<GuidedMeasurementEvent>()
        let measurement = RangeOfMotionMeasurement(
            sensor: sensors.shank, thigh: sensors.thigh, calibration: calibration.withLock { $0 },
            parameters: SessionParameters(measurementProtocol: measurementProtocol), pacing: pacing,
            onProgress: { [mailbox] phase in
                switch phase {
                case .settling: mailbox.post(.holdStill)
                case .ready: mailbox.post(.go)
                case .moving, .flexing: mailbox.post(.moving)
                case .readyToFlex: mailbox.post(.flex)
                // Back near the start: still the same movement for the cues, until it is still;
                // the completion carries the result.
                case .returning, .finished: break
                }
            })
        mailbox.attach(stop: { measurement.stop() }, abort: { measurement.abort() })
        measurement.start { [mailbox] result in
            switch result {
            case .success(let report): mailbox.finish(.finished(report.result))
            case .failure(.aborted): mailbox.finish(.aborted)
            case .failure(let error): mailbox.finish(.failed(error))
            }
        }
        return mailbox
    }

    public func startCalibration() throws(MPU6050Error) -> any GuidedRun<GuidedCalibrationEvent> {
        let (sensors, pacing) = try openConfiguredSensors(measuring: nil)
        let mailbox = GuidedRunMailbox<GuidedCalibrationEvent>()
        let run = CalibrationRun(
            sensor: sensors.shank, thigh: sensors.thigh, pacing: pacing,
            onStep: { [mailbox] step in
                switch step {
                case .holdStill: mailbox.post(.holdStill)
                case .nextFace(let captured): mailbox.post(.nextFace(captured: captured))
                case .retakeFace(let face): mailbox.post(.retakeFace(face))
                case .wrongFace(let up, let asked, let after):
                    mailbox.post(.wrongFace(up: up, asked: asked, after: after))
                case .strapOn: mailbox.post(.strapOn)
                case .swing: mailbox.post(.swing)
                case .finished: break  // the completion says saved or failed
                }
            })
        // A calibration has nothing to end with: a short press leaves it running.
        mailbox.attach(stop: {}, abort: { run.abort() })
        let save = saveCalibration
        run.start { [self, mailbox] result in
            switch result {
            case .success(let calibration):
                do throws(AtomicFile.WriteError) {
                    try save(calibration)
                    self.calibration.withLock { $0 = calibration }
                    mailbox.finish(.saved(Self.summary(calibration)))
                } catch {
                    mailbox.finish(.failed(.notSaved(error)))
                }
            case .failure(.aborted): mailbox.finish(.aborted)
            case .failure(.procedure(let error)): mailbox.finish(.failed(.refused(error)))
            case .failure(.sensor(let error)): mailbox.finish(.failed(.sensor(error)))
            }
        }
        return mailbox
    }

    static func summary(_ calibration: Calibration) -> String {
        func vector(_ v: Vector3) -> String {
            "(\(RangeOfMotionResult.degrees(v.x).dropLast()), \(RangeOfMotionResult.degrees(v.y).dropLast()), \(RangeOfMotionResult.degrees(v.z).dropLast()))"
        }
        return "gyro bias \(vector(calibration.gyroBias)) °/s"
            + (calibration.mounting == nil ? "" : ", shin mounting taken")
    }
}

/// One guided procedure's mailbox, filled on the sampling queue and emptied by the daemon's loop;
/// stop and abort go to the procedure until it has finished.
final class GuidedRunMailbox<Event: Sendable>: GuidedRun, Sendable {
    private struct Control: Sendable {
        let stop: @Sendable () -> Void
        let abort: @Sendable () -> Void
    }

    private let events = Mutex<[Event]>([])
    private let control = Mutex<Control?>(nil)

    func attach(stop: @escaping @Sendable () -> Void, abort: @escaping @Sendable () -> Void) {
        control.withLock { $0 = Control(stop: stop, abort: abort) }
    }

    func post(_ event: Event) {
        events.withLock { $0.append(event) }
    }

    /// Posts the last event: the procedure is over.
    func finish(_ event: Event) {
        post(event)
        control.withLock { $0 = nil }
    }

    func takeEvents() -> [Event] {
        events.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }

    func stop() {
        control.withLock { $0 }?.stop()
    }

    func abort() {
        control.withLock { $0 }?.abort()
    }
}

/// Probes the sensors by reading WHO_AM_I, the shank's then the thigh's (when one is configured),
/// through a freshly opened bus.
public final class SensorIdentityProbe: SensorProbe {
    public let location: String
    private let openSensor: SensorProcedureStarter.OpenSensor

    public init(location: String, openSensor: @escaping SensorProcedureStarter.OpenSensor) {
        self.location = location
        self.openSensor = openSensor
    }

    public func check() throws(MPU6050Error) {
        let sensors = try openSensor(nil)
        do throws(LegSensorError) { try sensors.identify() } catch { throw error.error }
    }
}
