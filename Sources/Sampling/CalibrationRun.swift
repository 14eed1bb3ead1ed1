import Dispatch
import Fusion
import Sensor
import Synchronization

/// The guided calibration (``GuidedCalibration``) on a live sensor: the sampling loop feeds it
/// every raw sample once and each step is reported as it begins, so that a caller can prompt
/// (terminal lines, LED and buzzer cues). It ends when the procedure finishes, refuses (a
/// `CalibrationError`, e.g. the device moved during the gyro-bias window), the sensor fails,
/// or ``abort()`` is called.
///
/// The threading contract is ``RangeOfMotionMeasurement``'s: ``start(completion:)`` returns at
/// once, ``run()`` blocks the calling thread; `onStep` and the completion run on the loop's serial
/// queue, in order; ``abort()`` is thread-safe and takes effect at the next tick.
public final class CalibrationRun: @unchecked Sendable {
    /// Why a calibration gave no result.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
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

    // Confined to the loop's queue.
    private let ticker: SampleTicker
    private var procedure: GuidedCalibration
    private var reported: GuidedCalibration.Step?

    private let loop: SamplingLoop
    private let onStep: @Sendable (GuidedCalibration.Step) -> Void
    private let requests = Mutex((started: false, abort: false))

    /// - Parameters:
    ///   - sensor: Configured (`configure(_:)` done); owned by the calibration until it ends.
    ///   - parameters: The procedure's timing.
    ///   - tickSeconds, pacing: As for ``RangeOfMotionMeasurement``.
    ///   - onStep: Each step as it begins, `.holdStill` first.
    public init(
        sensor: MPU6050, parameters: GuidedCalibration.Parameters = GuidedCalibration.Parameters(),
        tickSeconds: Double = 0.05, pacing: SamplingLoop.Pacing = .dispatchTimer,
        onStep: @escaping @Sendable (GuidedCalibration.Step) -> Void = { _ in }
    ) {
        ticker = SampleTicker(sensor: sensor, periodSeconds: tickSeconds, clock: sensor.clock)
        procedure = GuidedCalibration(parameters: parameters)
        loop = SamplingLoop(periodSeconds: tickSeconds, pacing: pacing, label: "romdev.calibration")
        self.onStep = onStep
    }

    /// Starts and returns at once; `completion` runs once on the loop's queue.
    /// - Precondition: Not started before.
    public func start(completion: @escaping @Sendable (Result<Calibration, Failure>) -> Void) {
        let started = requests.withLock { requests in
            defer { requests.started = true }
            return requests.started
        }
        precondition(!started, "a calibration runs once")
        loop.start(
            tick: { [self] in try tick() },
            completion: { [self] error in
                if let error {
                    completion(.failure(error as? Failure ?? .aborted))
                } else if let calibration = procedure.calibration, procedure.step == .finished {
                    completion(.success(calibration))
                } else {
                    completion(.failure(.aborted))
                }
            })
    }

    /// Runs the calibration to its end on the calling thread.
    public func run() throws(Failure) -> Calibration {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Calibration, Failure>>(.failure(.aborted))
        start { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0 }.get()
    }

    /// Ends the calibration at the next tick without a result.
    public func abort() {
        requests.withLock { $0.abort = true }
    }

    private func tick() throws -> SamplingLoop.Next {
        if reported == nil { report(procedure.step) }
        if requests.withLock({ $0.abort }) { throw Failure.aborted }
        var refusal: CalibrationError?
        do throws(MPU6050Error) {
            try ticker.tick { raw in
                guard refusal == nil, procedure.step != .finished else { return }
                do throws(CalibrationError) {
                    let step = try procedure.update(InertialSample(raw))
                    if step != reported { report(step) }
                } catch {
                    refusal = error
                }
            }
        } catch {
            throw Failure.sensor(error)
        }
        if let refusal { throw Failure.procedure(refusal) }
        return procedure.step == .finished ? .finish : .continue
    }

    private func report(_ step: GuidedCalibration.Step) {
        reported = step
        onStep(step)
    }
}
