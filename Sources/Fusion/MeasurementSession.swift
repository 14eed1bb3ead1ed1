#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One knee range-of-motion measurement as a state machine fed one calibrated sample at a time.
///
/// The patient sits still (start pose), extends the knee as far as possible, lowers the leg again and
/// holds still. The session ends on its own when the leg is back within
/// ``SessionParameters/returnTolerance`` of the start pose and at rest, on ``stop()``, or at the
/// time-out. The result is computed at the end, once the whole motion has shown the knee's hinge axis.
///
/// Without a known ``Mounting`` (from calibration), the shin axis is the gravity direction of the still
/// start pose (so `start` is 0) and the hinge is the dominant rotation axis of the motion, oriented so
/// that the larger excursion is extension, the motion the task asks for.
public struct MeasurementSession: Sendable {
    /// Where the session is.
    public enum Phase: Hashable, Sendable {
        /// Waiting for the leg to be still to take the start pose.
        case settling
        /// Start pose taken; waiting for the motion.
        case ready
        /// The leg has left the start pose.
        case moving
        /// Ended; ``result()`` is available.
        case finished(EndReason)
    }

    /// Why a session ended.
    public enum EndReason: String, Hashable, Sendable, Codable {
        /// The leg came back to the start pose and was still.
        case returned
        /// ``stop()`` was called.
        case stopped
        /// ``SessionParameters/timeout`` elapsed.
        case timedOut
    }

    public let parameters: SessionParameters
    public private(set) var phase = Phase.settling
    /// The fusion state, e.g. for the current gravity direction and rest state.
    public private(set) var filter: GravityFilter
    /// The mounting given at creation, or `nil` to estimate it from the session.
    public let knownMounting: Mounting?

    private var flags: QualityFlags = []
    private let cosineOfMotionThreshold: Double
    private let cosineOfReturnTolerance: Double
    private var firstTime: Double?
    private var lastTime = 0.0
    private var startGravity = Vector3.unitZ
    private var startIndex = 0
    private var startEstablished = false
    private var scatter = RotationScatter()
    /// Gravity direction of every sample, reserved up front so sampling never allocates.
    private var gravities: [Vector3] = []

    /// - Parameters:
    ///   - parameters: the session's rules.
    ///   - fusion: the filter tuning.
    ///   - mounting: the sensor's mounting from calibration, or `nil` to estimate it.
    public init(parameters: SessionParameters = SessionParameters(),
                fusion: FusionParameters = FusionParameters(),
                mounting: Mounting? = nil) {
        self.parameters = parameters
        self.filter = GravityFilter(parameters: fusion)
        self.knownMounting = mounting
        cosineOfMotionThreshold = cos(parameters.motionThreshold * Double.pi / 180)
        cosineOfReturnTolerance = cos(parameters.returnTolerance * Double.pi / 180)
        // Capped (ten minutes at 200 Hz) so that an unbounded time-out does not reserve without limit.
        gravities.reserveCapacity(Int(min(max(1, parameters.timeout * parameters.reservedSampleRate), 120_000)))
    }

    /// Whether the session has ended.
    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// Degrees between the current gravity direction and the start pose's: how far the leg is from
    /// where it started, in any direction (for feedback while measuring).
    public var tiltFromStart: Double { filter.gravity.angle(to: startGravity) * 180 / Double.pi }

    // Tilt tests against precomputed cosines: no trigonometry per sample.
    private var hasLeftStart: Bool { filter.gravity.dot(startGravity) < cosineOfMotionThreshold }
    private var isBackAtStart: Bool { filter.gravity.dot(startGravity) >= cosineOfReturnTolerance }

    /// Feeds one calibrated sample; ignored once the session has finished.
    /// - Returns: the phase after the sample.
    @discardableResult
    public mutating func update(_ sample: InertialSample) -> Phase {
        guard !isFinished else { return phase }
        if firstTime == nil { firstTime = sample.time }
        let interval = gravities.isEmpty ? 0 : max(0, sample.time - lastTime)
        lastTime = sample.time
        if sample.rotationRate.maximumMagnitude >= parameters.gyroSaturationThreshold {
            flags.insert(.gyroSaturated)
        }
        filter.update(sample)
        gravities.append(filter.gravity)

        switch phase {
        case .settling:
            if filter.restDetector.isStill || gravities.count == 1 {
                startGravity = filter.gravity
                startIndex = gravities.count - 1
            } else {
                flags.insert(.movedAtStart)
            }
            if filter.isAtRest {
                startEstablished = true
                phase = .ready
            } else if hasLeftStart {
                // The leg left before it was ever at rest: measure from its last still pose.
                flags.insert(.movedAtStart)
                startEstablished = true
                phase = .moving
            }
        case .ready:
            if hasLeftStart { phase = .moving }
        case .moving:
            if filter.isAtRest && isBackAtStart {
                finish(.returned)
            }
        case .finished:
            break
        }
        if startEstablished {
            scatter.add(sample.rotationRate - filter.gyroBias, interval: interval)
        }
        if !isFinished, let firstTime, sample.time - firstTime >= parameters.timeout {
            finish(.timedOut)
        }
        return phase
    }

    /// Ends the session now (the patient or the operator pressed stop).
    public mutating func stop() {
        guard !isFinished else { return }
        finish(.stopped)
    }

    private mutating func finish(_ reason: EndReason) {
        if !startEstablished
            || lastTime - (firstTime ?? lastTime) < parameters.minimumDuration {
            flags.insert(.tooShort)
        }
        phase = .finished(reason)
    }

    /// The mounting used for the result: the known one, or the one estimated from the start pose and
    /// the motion so far. `nil` before any sample.
    public var mounting: Mounting? {
        if let knownMounting { return knownMounting }
        guard !gravities.isEmpty else { return nil }
        let hinge = scatter.principalAxis(perpendicularTo: startGravity)?.axis
            ?? (abs(startGravity.x) < 0.9 ? Vector3.unitX : .unitY)
        guard let provisional = Mounting(shinAxis: startGravity, hingeAxis: hinge) else { return nil }
        // The hinge axis's sign is not observable from the scatter; the task's motion is an extension,
        // so the larger excursion from the start pose is taken as positive.
        guard let result = Self.result(of: gravities[startIndex...], mounting: provisional, flags: [])
        else { return provisional }
        return abs(result.minimum - result.start) > abs(result.maximum - result.start)
            ? provisional.reversed : provisional
    }

    /// The measurement's result; `nil` until the session has finished.
    public func result() -> RangeOfMotionResult? {
        guard isFinished, let mounting,
              var result = Self.result(of: gravities[startIndex...], mounting: mounting, flags: flags)
        else { return nil }
        if result.minimum < parameters.plausibleMinimum || result.maximum > parameters.plausibleMaximum {
            result.flags.insert(.implausible)
        }
        // Only a real motion shows whether it was about one hinge; a still leg's noise has no axis.
        if knownMounting == nil, result.range >= parameters.motionThreshold,
           let (_, offAxis) = scatter.principalAxis(perpendicularTo: startGravity),
           offAxis > parameters.maximumOffHingeFraction {
            result.flags.insert(.implausible)
        }
        return result
    }

    /// How many samples the session has taken (it ignores those fed after it finished).
    public var sampleCount: Int { gravities.count }

    private static func result(of gravities: ArraySlice<Vector3>, mounting: Mounting,
                               flags: QualityFlags) -> RangeOfMotionResult? {
        guard let first = gravities.first else { return nil }
        var unwrapper = AngleUnwrapper()
        let start = unwrapper.unwrap(mounting.sagittalAngle(gravity: first))
        var result = RangeOfMotionResult(start: start, finish: start, minimum: start, maximum: start, flags: flags)
        for gravity in gravities.dropFirst() {
            let angle = unwrapper.unwrap(mounting.sagittalAngle(gravity: gravity))
            result.minimum = min(result.minimum, angle)
            result.maximum = max(result.maximum, angle)
            result.finish = angle
        }
        return result
    }
}
