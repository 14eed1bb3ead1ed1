import Fusion
import LinuxSystem
import Sampling
import Sensor

/// A guided procedure, a measurement or a calibration, running on its own queue. The daemon's
/// loop polls it between waits, so the loop stays single-threaded: events are queued until taken.
public protocol GuidedRun<Event>: AnyObject {
    associatedtype Event
    /// The events since the last call, in order; never blocks.
    func takeEvents() -> [Event]
    /// Ends the procedure with what it has so far (the patient's short press); a calibration has
    /// nothing to end with and goes on.
    func stop()
    /// Ends the procedure without a result (a long press, a stop signal). Safe to call any time.
    func abort()
}

/// What a guided measurement reports to the daemon's loop, which turns it into cues.
public enum GuidedMeasurementEvent: Equatable, Sendable {
    /// Waiting for the leg to be still: "hold still".
    case holdStill
    /// The start pose is taken: "go", extend the knee.
    case go
    /// The leg has left the start pose.
    case moving
    /// Arc protocol: back and still after the extension: "go" again, slide the foot back under the
    /// chair.
    case flex
    /// The session ended with a result (not yet stored).
    case finished(RangeOfMotionResult)
    /// The session ended without a result; a sensor failure is checked again before the next
    /// session.
    case failed(MeasurementError)
    /// The session ended because it was aborted.
    case aborted
}

/// Starts measurements on the sensor.
public protocol GuidedMeasurementStarter: AnyObject {
    /// Opens and configures the sensor and starts a session following `measurementProtocol`.
    /// - Throws: The sensor's error when it cannot be opened or configured.
    func startMeasurement(_ measurementProtocol: MeasurementProtocol) throws(MPU6050Error) -> any GuidedRun<
        GuidedMeasurementEvent
    >
}

/// Checks the sensor answers, at start-up and while it is missing.
public protocol SensorProbe: AnyObject {
    /// Returns when the sensor answers.
    /// - Throws: Why it does not (`i2c read … on /dev/i2c-1: Remote I/O error`).
    func check() throws(MPU6050Error)
    /// Where the sensor is, for messages: `/dev/i2c-1 at 0x68`.
    var location: String { get }
}

/// What a guided calibration reports to the daemon's loop.
public enum GuidedCalibrationEvent: Equatable, Sendable {
    /// Lie still on a table (gyro bias).
    case holdStill
    /// `captured` poses on the table are done: turn the device onto another face (after the
    /// sixth, once more onto a face used before).
    case nextFace(captured: Int)
    /// Samples were lost during a tip: turn the device with this face up, to make it again.
    case retakeFace(String)
    /// The device lies still on its `up` face, not the `asked` one: turn it back to `after` up and
    /// tip it from there to `asked` up.
    case wrongFace(up: String, asked: String, after: String)
    /// Strap the device on the shin and hold still.
    case strapOn
    /// Extend the knee once and return.
    case swing
    /// Calibrated and saved; the text summarises it.
    case saved(String)
    /// No calibration: refused (the device moved), the sensor failed, or it could not be saved.
    case failed(GuidedCalibrationFailure)
    case aborted
}

/// Why a guided calibration gave no calibration.
public enum GuidedCalibrationFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The procedure refused its input (the device moved while it should be still).
    case refused(CalibrationError)
    /// The sensor failed.
    case sensor(MPU6050Error)
    /// The calibration file could not be written.
    case notSaved(AtomicFile.WriteError)

    public var description: String {
        switch self {
        case .refused(let error): "\(error)"
        case .sensor(let error): "the sensor failed: \(error)"
        case .notSaved(let error): "the calibration could not be saved: \(error)"
        }
    }
}

/// Starts calibrations on the sensor.
public protocol GuidedCalibrationStarter: AnyObject {
    func startCalibration() throws(MPU6050Error) -> any GuidedRun<GuidedCalibrationEvent>
}
