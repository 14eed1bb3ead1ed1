import Fusion
import Sensor

/// One guided knee range-of-motion measurement on a live sensor: every sample is corrected by
/// the calibration and fed once to a ``MeasurementSession``, whose phases are reported as they
/// change. It ends on its own when the leg is back and still, at the session's time-out (on the
/// sensor clock), on `stop()` (with the result so far) or `abort()` (without one), or with
/// ``MeasurementError/sensor(_:afterSamples:)`` when the sensor fails. The threading contract is
/// ``GuidedProcedureRunner``'s.
public typealias RangeOfMotionMeasurement = GuidedProcedureRunner<RangeOfMotionProcedure>

extension GuidedProcedureRunner where Procedure == RangeOfMotionProcedure {
    public typealias Report = RangeOfMotionProcedure.Report

    /// - Parameters:
    ///   - sensor: Configured (`configure(_:)` done), FIFO mode recommended; owned by the
    ///     measurement until it ends.
    ///   - thigh: The thigh's sensor, configured alike, or nil without one.
    ///   - calibration: The sensor's calibration, or nil to use raw samples (the filter still
    ///     learns the gyro bias at rest; accelerometer offsets remain). Its mounting, when
    ///     present, fixes the sagittal plane, otherwise the session estimates it from the start
    ///     pose and the motion.
    ///   - parameters: The session's rules (time-out, thresholds).
    ///   - fusion: The filter's tuning.
    ///   - tickSeconds, pacing: See ``GuidedProcedureRunner/init(_:sensor:thigh:tickSeconds:pacing:label:onStep:)``.
    ///   - onProgress: Phase reports: first `.settling`, then each change, `.finished` last (when
    ///     the session finished).
    public convenience init(
        sensor: MPU6050, thigh: MPU6050? = nil, calibration: Calibration?,
        parameters: SessionParameters = SessionParameters(), fusion: FusionParameters = FusionParameters(),
        tickSeconds: Double = 0.05,
        pacing: SamplingLoop.Pacing = .dispatchTimer,
        onProgress: @escaping @Sendable (MeasurementSession.Phase) -> Void = { _ in }
    ) {
        self.init(
            RangeOfMotionProcedure(
                session: MeasurementSession(parameters: parameters, fusion: fusion, calibration: calibration)),
            sensor: sensor, thigh: thigh, tickSeconds: tickSeconds, pacing: pacing, label: "romdev.measurement",
            onStep: onProgress)
    }
}

/// A ``MeasurementSession`` as a sampled procedure, keeping the span of its samples.
public struct RangeOfMotionProcedure: SampledProcedure {
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

    private var session: MeasurementSession
    private var firstTime: Double?
    private var lastTime = 0.0

    init(session: MeasurementSession) {
        self.session = session
    }

    public var step: MeasurementSession.Phase { session.phase }
    public var isFinished: Bool { session.isFinished }

    public mutating func take(_ sample: InertialSample, thigh: InertialSample?) throws(MeasurementError) {
        session.update(sample, thigh: thigh)
        if firstTime == nil { firstTime = sample.time }
        lastTime = sample.time
    }

    /// Ends the session with the result measured so far (flagged too short when it is).
    /// - Throws: ``MeasurementError/noSamples`` before the first sample.
    public mutating func stop() throws(MeasurementError) {
        guard session.sampleCount > 0 else { throw .noSamples }
        session.stop()
    }

    public func product(sampling: SamplingStatistics) -> Result<Report, MeasurementError> {
        guard let result = session.result(), case .finished(let reason) = session.phase else {
            return .failure(.noSamples)
        }
        return .success(
            Report(
                result: result, endReason: reason, samples: session.sampleCount,
                seconds: lastTime - (firstTime ?? lastTime), sampling: sampling))
    }

    public func sensorFailure(_ error: MPU6050Error) -> MeasurementError {
        .sensor(error, afterSamples: session.sampleCount)
    }

    public static var aborted: MeasurementError { .aborted }
}
