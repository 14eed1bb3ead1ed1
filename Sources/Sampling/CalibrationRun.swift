import Fusion
import Sensor

/// The guided calibration (``GuidedCalibration``) on a live sensor: every raw sample is fed to it
/// once and each step is reported as it begins, so that a caller can prompt (terminal lines, LED
/// and buzzer cues). It ends when the procedure finishes, refuses (a `CalibrationError`, e.g. the
/// device moved during the gyro-bias window), the sensor fails, or `abort()` is called; `stop()`
/// does nothing, as a calibration has no partial result. The threading contract is
/// ``GuidedProcedureRunner``'s.
public typealias CalibrationRun = GuidedProcedureRunner<GuidedCalibration>

extension GuidedProcedureRunner where Procedure == GuidedCalibration {
    public typealias Failure = CalibrationRunFailure

    /// - Parameters:
    ///   - sensor: Configured (`configure(_:)` done); owned by the calibration until it ends.
    ///   - thigh: The thigh's sensor, configured alike, or nil without one.
    ///   - parameters: The procedure's timing.
    ///   - tickSeconds, pacing: As for ``RangeOfMotionMeasurement``.
    ///   - onStep: Each step as it begins, `.holdStill` first.
    public convenience init(
        sensor: MPU6050, thigh: MPU6050? = nil,
        parameters: GuidedCalibration.Parameters = GuidedCalibration.Parameters(),
        tickSeconds: Double = 0.05, pacing: SamplingLoop.Pacing = .dispatchTimer,
        onStep: @escaping @Sendable (GuidedCalibration.Step) -> Void = { _ in }
    ) {
        self.init(
            GuidedCalibration(parameters: parameters), sensor: sensor, thigh: thigh, tickSeconds: tickSeconds,
            pacing: pacing,
            label: "romdev.calibration", onStep: onStep)
    }
}

/// Why a calibration run gave no calibration.
public enum CalibrationRunFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The procedure refused its input.
    case procedure(CalibrationError)
    /// The sensor failed.
    case sensor(MPU6050Error)
    case aborted

    public var description: String {
        switch self {
        case .procedure(let error): "\(error)"
        case .sensor(let error): "the sensor failed: \(error)"
        case .aborted: "the calibration was aborted"
        }
    }
}

/// What the calibration's procedures share on the runner: a calibration once finished, nothing
/// before (no partial result), and the run's failures.
public protocol CalibrationProcedure: SampledProcedure
where Product == Calibration, Failure == CalibrationRunFailure {
    /// The result, once finished.
    var calibration: Calibration? { get }
}

extension CalibrationProcedure {
    /// Nothing to end with: the calibration goes on.
    public mutating func stop() {}

    public func product(sampling: SamplingStatistics) -> Result<Calibration, CalibrationRunFailure> {
        guard let calibration, isFinished else { return .failure(.aborted) }
        return .success(calibration)
    }

    public func sensorFailure(_ error: MPU6050Error) -> CalibrationRunFailure { .sensor(error) }

    public static var aborted: CalibrationRunFailure { .aborted }
}

extension GuidedCalibration: CalibrationProcedure {
    public var isFinished: Bool { step == .finished }

    public mutating func take(_ sample: InertialSample, thigh: InertialSample?) throws(CalibrationRunFailure) {
        do throws(CalibrationError) {
            _ = try update(sample)
        } catch {
            throw .procedure(error)
        }
    }
}

/// The knee-axis step (``HingeCalibration``) on the sensors: it needs the thigh's sample beside
/// every shank sample, and refuses without one.
extension HingeCalibration: CalibrationProcedure {
    public var isFinished: Bool { step == .finished }

    public mutating func take(_ sample: InertialSample, thigh: InertialSample?) throws(CalibrationRunFailure) {
        do throws(CalibrationError) {
            guard let thigh else { throw .needsThighSensor }
            _ = try update(sample, thigh: thigh)
        } catch {
            throw .procedure(error)
        }
    }
}
