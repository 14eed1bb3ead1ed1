import Dispatch
import Fusion
import Sensor
import Synchronization

/// One guided knee range-of-motion measurement on a live sensor: the sampling loop drains the
/// FIFO, every sample is corrected by the calibration and fed once to a ``MeasurementSession``,
/// and the phases are reported as they change so that a caller can cue the patient (LED, buzzer,
/// terminal).
///
/// A session ends on its own when the leg is back and still, at the session's time-out (on the
/// sensor clock), on ``stop()`` (with the result so far) or ``abort()`` (without one), or with
/// ``MeasurementError/sensor(_:afterSamples:)`` when the sensor fails; it never traps or hangs on
/// a sensor failure (the driver reports a FIFO that stays empty as an error).
///
/// Threading contract:
/// - Create it on any thread; from then on the sensor belongs to it until the completion ran.
/// - ``start(completion:)`` returns at once; ``run()`` blocks the calling thread until the end
///   (do not call it on the measurement's own queue, e.g. from a progress callback).
/// - `onProgress` and the completion run on the sampling loop's serial queue, in order: first
///   `.settling`, then each phase change, `.finished` last (when the session finished), then the
///   completion. They must return quickly (hop to another queue for slow work): the loop waits.
/// - ``stop()`` and ``abort()`` may be called from any thread, any number of times, also before
///   the start or after the end; they take effect at the next tick (one tick period, 50 ms by
///   default) and the first of them wins.
public final class RangeOfMotionMeasurement: @unchecked Sendable {
    /// What a finished measurement gives: the result and how the session went.
    public struct Report: Hashable, Sendable {
        /// The angles and quality flags.
        public var result: RangeOfMotionResult
        /// Why the session ended.
        public var endReason: MeasurementSession.EndReason
        /// Samples the session used.
        public var samples: Int
        /// From the session's first to its last sample, seconds on the sensor clock.
        public var seconds: Double
        /// The sampling loop's counters.
        public var sampling: SamplingStatistics
    }

    /// The corrections applied to every sample; its mounting, when present, fixes the sagittal
    /// plane, otherwise the session estimates it from the start pose and the motion.
    public let calibration: Calibration?
    public let parameters: SessionParameters

    // Confined to the loop's queue (the class is `@unchecked Sendable` for this reason).
    private let ticker: SampleTicker
    private var session: MeasurementSession
    private var reportedPhase: MeasurementSession.Phase?
    private var firstTime: Double?
    private var lastTime = 0.0

    private let loop: SamplingLoop
    private let onProgress: @Sendable (MeasurementSession.Phase) -> Void
    private let requests = Mutex(Requests())

    private struct Requests {
        var started = false
        var stop = false
        var abort = false
    }

    /// - Parameters:
    ///   - sensor: Configured (`configure(_:)` done), FIFO mode recommended; owned by the
    ///     measurement until it ends.
    ///   - calibration: The sensor's calibration, or nil to use raw samples (the filter still
    ///     learns the gyro bias at rest; accelerometer offsets remain).
    ///   - parameters: The session's rules (time-out, thresholds).
    ///   - fusion: The filter's tuning.
    ///   - tickSeconds: Sampling loop period; 50 ms drains about 10 samples at 200 Hz, far inside
    ///     the FIFO's 0.43 s.
    ///   - pacing: `.dispatchTimer` on hardware and real-time simulation; `.sleeping(clock)` with
    ///     the sensor's `ManualClock` to run faster than real time.
    ///   - onProgress: Phase reports (see the threading contract).
    public init(
        sensor: MPU6050, calibration: Calibration?, parameters: SessionParameters = SessionParameters(),
        fusion: FusionParameters = FusionParameters(), tickSeconds: Double = 0.05,
        pacing: SamplingLoop.Pacing = .dispatchTimer,
        onProgress: @escaping @Sendable (MeasurementSession.Phase) -> Void = { _ in }
    ) {
        self.calibration = calibration
        self.parameters = parameters
        ticker = SampleTicker(sensor: sensor, periodSeconds: tickSeconds, clock: sensor.clock)
        session = MeasurementSession(parameters: parameters, fusion: fusion, calibration: calibration)
        loop = SamplingLoop(periodSeconds: tickSeconds, pacing: pacing, label: "romdev.measurement")
        self.onProgress = onProgress
    }

    /// Starts the measurement and returns at once.
    /// - Parameter completion: Called once, on the loop's queue, with the outcome or the error.
    /// - Precondition: Not started before (a measurement runs once).
    public func start(completion: @escaping @Sendable (Result<Report, MeasurementError>) -> Void) {
        let started = requests.withLock { requests in
            defer { requests.started = true }
            return requests.started
        }
        precondition(!started, "a measurement runs once")
        loop.start(
            tick: { [self] in try tick() },
            completion: { [self] error in
                if let error {
                    completion(.failure(error as? MeasurementError ?? .noSamples))
                } else {
                    completion(finalReport())
                }
            })
    }

    /// Runs the measurement to its end on the calling thread.
    /// - Returns: The outcome.
    /// - Throws: ``MeasurementError``.
    public func run() throws(MeasurementError) -> Report {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Report, MeasurementError>>(.failure(.noSamples))
        start { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0 }.get()
    }

    /// Ends the session at the next tick with the result measured so far (flagged too short when
    /// it is).
    public func stop() {
        requests.withLock { $0.stop = true }
    }

    /// Ends the measurement at the next tick without a result: the completion gets
    /// ``MeasurementError/aborted``.
    public func abort() {
        requests.withLock { $0.abort = true }
    }

    // MARK: - On the loop's queue

    private func tick() throws -> SamplingLoop.Next {
        if reportedPhase == nil { report(session.phase) }
        if requests.withLock({ $0.abort }) { throw MeasurementError.aborted }
        do {
            try ticker.tick { raw in
                guard !session.isFinished else { return }
                let sample = InertialSample(raw)
                let phase = session.update(sample)
                if firstTime == nil { firstTime = sample.time }
                lastTime = sample.time
                if phase != reportedPhase { report(phase) }
            }
        } catch {
            throw MeasurementError.sensor(error, afterSamples: session.sampleCount)
        }
        let requested = requests.withLock { $0 }
        if requested.abort { throw MeasurementError.aborted }
        if requested.stop, !session.isFinished {
            guard session.sampleCount > 0 else { throw MeasurementError.noSamples }
            session.stop()
            report(session.phase)
        }
        return session.isFinished ? .finish : .continue
    }

    private func report(_ phase: MeasurementSession.Phase) {
        reportedPhase = phase
        onProgress(phase)
    }

    private func finalReport() -> Result<Report, MeasurementError> {
        guard let result = session.result(), case .finished(let reason) = session.phase else {
            return .failure(.noSamples)
        }
        return .success(
            Report(
                result: result, endReason: reason, samples: session.sampleCount,
                seconds: lastTime - (firstTime ?? lastTime), sampling: ticker.statistics))
    }
}
