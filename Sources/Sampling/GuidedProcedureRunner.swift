import Dispatch
import Fusion
import Sensor
import Synchronization

/// A guided procedure fed the sensor's samples one by one: a range-of-motion session
/// (``RangeOfMotionProcedure``) or the calibration (``GuidedCalibration``).
public protocol SampledProcedure: Sendable {
    /// Where the patient is in the procedure, reported as it changes.
    associatedtype Step: Equatable & Sendable
    /// What a finished procedure gives.
    associatedtype Product: Sendable
    associatedtype Failure: Error & Sendable

    var step: Step { get }
    var isFinished: Bool { get }
    /// Takes one raw sample of the shank's sensor and, when a thigh sensor is fitted, the thigh's
    /// sample aligned to the same instant (never once finished).
    /// - Throws: When the procedure refuses its input.
    mutating func take(_ sample: InertialSample, thigh: InertialSample?) throws(Failure)
    /// Ends the procedure early with what it has; one without a partial result goes on.
    mutating func stop() throws(Failure)
    /// What the procedure gave once the loop ended without an error.
    func product(sampling: SamplingStatistics) -> Result<Product, Failure>
    /// The failure of a sensor error met while sampling.
    func sensorFailure(_ error: MPU6050Error) -> Failure
    /// The failure of ``GuidedProcedureRunner/abort()``.
    static var aborted: Failure { get }
}

/// Runs a guided procedure on a live sensor: the sampling loop drains the FIFO (both FIFOs in the
/// same tick when a thigh sensor is fitted, each shank sample paired with the thigh's reading at
/// its instant by ``SensorPairAligner``), every sample is fed once to the procedure, and each step is reported as it begins, so that a
/// caller can cue the patient (LED, buzzer, terminal). It ends when the procedure finishes or
/// refuses, the sensor fails (never trapping or hanging: the driver reports a FIFO that stays
/// empty as an error), or on ``stop()`` (with the result so far) or ``abort()`` (without one).
///
/// Threading contract:
/// - Create it on any thread; from then on the sensor belongs to it until the completion ran.
/// - ``start(completion:)`` returns at once; ``run()`` blocks the calling thread until the end
///   (do not call it on the runner's own queue, e.g. from a step callback).
/// - `onStep` and the completion run on the sampling loop's serial queue, in order: the first
///   step, then each change, then the completion. They must return quickly (hop to another
///   queue for slow work): the loop waits.
/// - ``stop()`` and ``abort()`` may be called from any thread, any number of times, also before
///   the start or after the end; they take effect at the next tick (one tick period, 50 ms by
///   default) and the first of them wins.
///
/// `@unchecked Sendable`: the procedure and the ticker are confined to the loop's queue; the
/// requests are behind a mutex.
public final class GuidedProcedureRunner<Procedure: SampledProcedure>: @unchecked Sendable {
    private let ticker: SampleTicker
    private var procedure: Procedure
    private var reported: Procedure.Step?
    /// The procedure's refusal of a sample, thrown at the end of the tick.
    private var refusal: Procedure.Failure?

    private let loop: SamplingLoop
    private let onStep: @Sendable (Procedure.Step) -> Void
    private let requests = Mutex(Requests())

    private struct Requests {
        var started = false
        var stop = false
        var abort = false
    }

    /// - Parameters:
    ///   - procedure: The procedure, at its start.
    ///   - sensor: Configured (`configure(_:)` done), FIFO mode recommended; owned by the runner
    ///     until it ends.
    ///   - thigh: The thigh's sensor on the same clock, configured as `sensor` and owned alike;
    ///     nil without one (the procedure then takes `thigh: nil`).
    ///   - tickSeconds: Sampling loop period; 50 ms drains about 10 samples at 200 Hz, far inside
    ///     the FIFO's 0.43 s.
    ///   - pacing: `.dispatchTimer` on hardware and real-time simulation; `.sleeping(clock)` with
    ///     the sensor's `ManualClock` to run faster than real time.
    ///   - label: The loop's queue label.
    ///   - onStep: Each step as it begins (see the threading contract).
    public init(
        _ procedure: Procedure, sensor: MPU6050, thigh: MPU6050? = nil, tickSeconds: Double,
        pacing: SamplingLoop.Pacing, label: String, onStep: @escaping @Sendable (Procedure.Step) -> Void
    ) {
        self.procedure = procedure
        ticker = SampleTicker(sensor: sensor, thigh: thigh, periodSeconds: tickSeconds, clock: sensor.clock)
        loop = SamplingLoop(periodSeconds: tickSeconds, pacing: pacing, label: label)
        self.onStep = onStep
    }

    /// Starts the procedure and returns at once.
    /// - Parameter completion: Called once, on the loop's queue, with the product or the failure.
    /// - Precondition: Not started before (a procedure runs once).
    public func start(completion: @escaping @Sendable (Result<Procedure.Product, Procedure.Failure>) -> Void) {
        let started = requests.withLock { requests in
            defer { requests.started = true }
            return requests.started
        }
        precondition(!started, "a guided procedure runs once")
        loop.start(
            tick: { [self] in try tick() },
            completion: { [self] error in
                if let error {
                    completion(.failure(error as? Procedure.Failure ?? Procedure.aborted))
                } else {
                    completion(procedure.product(sampling: ticker.statistics))
                }
            })
    }

    /// Runs the procedure to its end on the calling thread.
    public func run() throws(Procedure.Failure) -> Procedure.Product {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Procedure.Product, Procedure.Failure>>(.failure(Procedure.aborted))
        start { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0 }.get()
    }

    /// Ends the procedure at the next tick with what it has so far (see
    /// ``SampledProcedure/stop()``).
    public func stop() {
        requests.withLock { $0.stop = true }
    }

    /// Ends the procedure at the next tick without a result: the completion gets
    /// ``SampledProcedure/aborted``.
    public func abort() {
        requests.withLock { $0.abort = true }
    }

    // MARK: - On the loop's queue

    private func tick() throws -> SamplingLoop.Next {
        if reported == nil { report(procedure.step) }
        if requests.withLock({ $0.abort }) { throw Procedure.aborted }
        do throws(MPU6050Error) {
            try ticker.tick { take($0, thigh: $1) }
        } catch {
            throw procedure.sensorFailure(error)
        }
        if let refusal { throw refusal }
        let requested = requests.withLock { $0 }
        if requested.abort { throw Procedure.aborted }
        if requested.stop, !procedure.isFinished {
            // The shank samples still waiting for the thigh's belong to what the procedure has.
            ticker.finish { take($0, thigh: $1) }
            if let refusal { throw refusal }
            try procedure.stop()
            if procedure.step != reported { report(procedure.step) }
        }
        return procedure.isFinished ? .finish : .continue
    }

    /// Feeds one sample (and the thigh's at its instant) to the procedure; after a refusal, or once
    /// it has finished, the rest of the tick's samples are not taken.
    private func take(_ shank: IMUSample, thigh: IMUSample?) {
        guard refusal == nil, !procedure.isFinished else { return }
        do throws(Procedure.Failure) {
            try procedure.take(InertialSample(shank), thigh: thigh.map(InertialSample.init))
        } catch {
            refusal = error
            return
        }
        if procedure.step != reported { report(procedure.step) }
    }

    private func report(_ step: Procedure.Step) {
        reported = step
        onStep(step)
    }
}
