#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One knee range-of-motion measurement as a state machine fed one raw sample at a time.
///
/// The patient sits still (start pose), extends the knee as far as possible, lowers the leg again and
/// holds still. The session ends on its own when the leg is back within
/// ``SessionParameters/returnTolerance`` of the start pose and at rest; when it is back but does not
/// come to rest within ``SessionParameters/settleTimeout`` (flagged); on ``stop()``; or at the
/// time-out. The result is computed at the end, from the whole motion (see ``result()``).
///
/// With the ``MeasurementProtocol/arc`` protocol, the return from the extension does not end the
/// session: it waits for the second step (``Phase/readyToFlex``), the foot sliding back under the
/// chair (``Phase/flexing``), and ends by the same rules at the return from it.
///
/// Without a known ``Mounting`` (from calibration), the shin axis is the gravity direction of the still
/// start pose (so `start` is 0) and the hinge is the dominant rotation axis of the motion, oriented so
/// that the larger excursion of the first step is extension, the motion the task asks for first.
public struct MeasurementSession: Sendable {
    /// Where the session is.
    public enum Phase: Hashable, Sendable {
        /// Waiting for the leg to be still to take the start pose.
        case settling
        /// Start pose taken; waiting for the motion.
        case ready
        /// The leg has left the start pose.
        case moving
        /// The leg is back near the start pose; waiting for it to be still.
        case returning
        /// Arc protocol: back and still after the extension; waiting for the foot to slide back.
        case readyToFlex
        /// Arc protocol: the leg has left the start pose for the flexion.
        case flexing
        /// Ended; ``result()`` is available.
        case finished(EndReason)
    }

    /// Why a session ended.
    public enum EndReason: String, Hashable, Sendable, Codable {
        /// The leg came back to the start pose and was still.
        case returned
        /// The leg came back to the start pose but did not come to rest (flagged ``QualityFlags/unsteady``).
        case returnedUnsteady = "returned-unsteady"
        /// ``stop()`` was called.
        case stopped
        /// ``SessionParameters/timeout`` elapsed.
        case timedOut = "timed-out"
    }

    public let parameters: SessionParameters
    public private(set) var phase = Phase.settling
    /// The fusion state, e.g. for the current gravity direction and rest state.
    public private(set) var filter: OrientationFilter
    /// The calibration applied to every sample, if any.
    public let calibration: Calibration?
    /// The mounting from the calibration, or `nil` to estimate it from the session.
    public var knownMounting: Mounting? { calibration?.mounting }

    private var flags: QualityFlags = []
    private let cosineOfMotionThreshold: Double
    private let cosineOfReturnTolerance: Double
    private var firstTime: Double?
    private var returnTime = 0.0
    /// Whether the leg has been farther from the start pose than the return tolerance: only then can
    /// coming back within it be a return.
    private var hasGoneOut = false
    private var startGravity = Vector3.unitZ
    private var startIndex = 0
    private var startEstablished = false
    private var scatter = RotationScatter()
    /// Arc protocol: the extension step is done, the session follows the flexion.
    private var isFlexionStep = false
    /// Arc protocol: the cosine of the largest tilt from the start pose during the flexion step.
    private var flexionFarthestCosine = 1.0
    /// Arc protocol: the trace index where the extension step ended, and whether the leg was at
    /// rest there.
    private var extensionEnd: (index: Int, atRest: Bool)?
    /// Every sample's fusion state, reserved up front so sampling never allocates.
    private var trace: [TracePoint] = []

    /// - Parameters:
    ///   - parameters: the session's rules.
    ///   - fusion: the filter tuning.
    ///   - calibration: the sensor's calibration, applied to every sample, or `nil` for raw samples
    ///     (the filter then measures the gyro bias at the first rest; accelerometer offsets remain).
    public init(
        parameters: SessionParameters = SessionParameters(),
        fusion: FusionParameters = FusionParameters(),
        calibration: Calibration? = nil
    ) {
        self.parameters = parameters
        self.calibration = calibration
        // A calibration measured the bias; the residual is its drift since.
        self.filter = OrientationFilter(parameters: fusion, gyroBias: calibration == nil ? nil : .zero)
        cosineOfMotionThreshold = cos(parameters.motionThreshold * Double.pi / 180)
        cosineOfReturnTolerance = cos(parameters.returnTolerance * Double.pi / 180)
        // Capped (ten minutes at 200 Hz) so that an unbounded time-out does not reserve without limit.
        trace.reserveCapacity(Int(min(max(1, parameters.timeout * parameters.reservedSampleRate), 120_000)))
    }

    /// Whether the session has ended.
    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    // Tilt tests against precomputed cosines: no trigonometry per sample.
    private var hasLeftStart: Bool { filter.gravity.dot(startGravity) < cosineOfMotionThreshold }
    private var isBackAtStart: Bool { filter.gravity.dot(startGravity) >= cosineOfReturnTolerance }
    /// Back from the flexion step: within the return tolerance, or within half the step's largest
    /// tilt. Early after surgery the foot may slide back by less than the tolerance, and such a
    /// step must still be able to return. cos(θ/2) = √((1 + cos θ)/2): still no trigonometry.
    private var isBackFromFlexion: Bool {
        let half = ((1 + flexionFarthestCosine) / 2).squareRoot()
        return filter.gravity.dot(startGravity) >= max(cosineOfReturnTolerance, half)
    }

    /// Feeds one raw sample; the calibration, if any, is applied here. Ignored once the session has
    /// finished.
    /// - Returns: the phase after the sample.
    @discardableResult
    public mutating func update(_ raw: InertialSample) -> Phase {
        guard !isFinished else { return phase }
        let sample = calibration?.corrected(raw) ?? raw
        if firstTime == nil { firstTime = sample.time }
        let interval = trace.last.map { max(0, sample.time - $0.time) } ?? 0
        if raw.rotationRate.maximumMagnitude >= parameters.gyroSaturationThreshold {
            flags.insert(.gyroSaturated)
        }
        filter.update(sample)
        let rate = sample.rotationRate - filter.gyroBias
        let threshold = filter.parameters.restGyroThreshold
        trace.append(
            TracePoint(
                time: sample.time, gravity: filter.gravity, acceleration: sample.acceleration,
                isTurning: !filter.isBiasKnown || rate.lengthSquared > threshold * threshold))

        switch phase {
        case .settling:
            if filter.restDetector.isStill || trace.count == 1 {
                startGravity = filter.gravity
                startIndex = trace.count - 1
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
            if !isBackAtStart {
                hasGoneOut = true
            } else if hasGoneOut {
                phase = .returning
                returnTime = sample.time
            }
        case .flexing:
            flexionFarthestCosine = min(flexionFarthestCosine, filter.gravity.dot(startGravity))
            if isBackFromFlexion {
                phase = .returning
                returnTime = sample.time
            }
        case .returning:
            if !(isFlexionStep ? isBackFromFlexion : isBackAtStart) {
                phase = isFlexionStep ? .flexing : .moving
            } else if filter.isAtRest {
                completeStep(.returned)
            } else if sample.time - returnTime >= parameters.settleTimeout {
                // Back, but never still: the thigh or the body kept moving. End rather than wait
                // for the time-out, and say so.
                flags.insert(.unsteady)
                completeStep(.returnedUnsteady)
            }
        case .readyToFlex:
            if hasLeftStart { phase = .flexing }
        case .finished:
            break
        }
        if startEstablished {
            scatter.add(rate, interval: interval)
        }
        if !isFinished, let firstTime, sample.time - firstTime >= parameters.timeout {
            finish(.timedOut)
        }
        return phase
    }

    /// The leg is back from a step: the extension of the arc protocol leads to the flexion, any
    /// other step ends the session.
    private mutating func completeStep(_ reason: EndReason) {
        guard parameters.measurementProtocol == .arc, !isFlexionStep else {
            finish(reason)
            return
        }
        isFlexionStep = true
        extensionEnd = (trace.count - 1, reason == .returned)
        phase = .readyToFlex
    }

    /// Ends the session now (the patient or the operator pressed stop).
    public mutating func stop() {
        guard !isFinished else { return }
        finish(.stopped)
    }

    private mutating func finish(_ reason: EndReason) {
        if !startEstablished
            || (trace.last?.time ?? 0) - (firstTime ?? 0) < parameters.minimumDuration
        {
            flags.insert(.tooShort)
        }
        switch phase {
        case .settling, .ready: flags.insert(.noMovement)
        case .moving, .flexing: flags.insert(.notReturned)
        case .readyToFlex: flags.insert(.noFlexion)
        case .returning, .finished: break
        }
        phase = .finished(reason)
    }

    /// The mounting used for the result: the known one, or the one estimated from the start pose and
    /// the motion so far. `nil` before any sample.
    public var mounting: Mounting? {
        if let knownMounting { return knownMounting }
        guard !trace.isEmpty else { return nil }
        let hinge =
            scatter.principalAxis(perpendicularTo: startGravity)?.axis
            ?? (abs(startGravity.x) < 0.9 ? Vector3.unitX : .unitY)
        guard let provisional = Mounting(shinAxis: startGravity, hingeAxis: hinge) else { return nil }
        // The hinge axis's sign is not observable from the scatter; the task's (first) motion is an
        // extension, so the larger excursion from the start pose during it is taken as positive.
        let end = extensionEnd.map { max(startIndex, $0.index) } ?? trace.count - 1
        let angles = Self.filterAngles(trace[startIndex...end], mounting: provisional)
        guard let first = angles.first, let low = angles.min(), let high = angles.max() else { return provisional }
        return first - low > high - first ? provisional.reversed : provisional
    }

    /// The measurement's result; `nil` until the session has finished.
    ///
    /// The angles are those of ``RestAnchoredAngles``: wherever the leg was held still the
    /// accelerometer's inclination, in between the filter's, corrected by its error at the
    /// surrounding still phases. Transients of the filter (the lag after a fast return, the
    /// overshoot at a turn) therefore count neither as flexion nor as extension.
    public func result() -> RangeOfMotionResult? {
        guard isFinished, let mounting else { return nil }
        let points = trace[startIndex...]
        var angles = RestAnchoredAngles(
            points: points, mounting: mounting, minimumStillSeconds: parameters.stillAnchorSeconds,
            anchorRegion: calibration == nil ? (startGravity, cosineOfReturnTolerance) : nil)
        if knownMounting == nil, let start = angles.values.first {
            // Without a mounting the start pose defines 0.
            angles.values = angles.values.map { $0 - start }
        }
        guard var result = RangeOfMotionResult(angles: angles.values, flags: flags) else { return nil }
        result.measurementProtocol = parameters.measurementProtocol
        if isSeatedAssumptionBroken(angles: angles.values) {
            result.flags.insert(.notSeated)
        }
        if result.minimum < parameters.plausibleMinimum || result.maximum > parameters.plausibleMaximum {
            result.flags.insert(.implausible)
        }
        if result.range < parameters.motionThreshold {
            result.flags.insert(.noMovement)
        }
        if angles.largestStillWander > parameters.maximumStillWander
            || angles.largestStillTurnRate > parameters.maximumStillTurnRate
        {
            result.flags.insert(.unsteady)
        }
        // Only a real motion shows whether it was about one hinge; a still leg's noise has no axis.
        if knownMounting == nil, result.range >= parameters.motionThreshold,
            let (_, offAxis) = scatter.principalAxis(perpendicularTo: startGravity),
            offAxis > parameters.maximumOffHingeFraction
        {
            result.flags.insert(.implausible)
        }
        return result
    }

    /// Whether the rests visibly contradict the seated assumption of the knee angles: the leg was at
    /// rest at the start, at the end of the arc's extension step and at the finish; a still thigh
    /// puts a returned foot back at about the start's inclination. With a known mounting, the start
    /// itself must also be near a hanging shin.
    private func isSeatedAssumptionBroken(angles: [Double]) -> Bool {
        guard let start = angles.first else { return false }
        if knownMounting != nil, abs(start) > parameters.maximumStartInclination { return true }
        var rests: [Double] = []
        if let extensionEnd, extensionEnd.atRest, extensionEnd.index >= startIndex {
            rests.append(angles[extensionEnd.index - startIndex])
        }
        if case .finished(.returned) = phase, let finish = angles.last { rests.append(finish) }
        return rests.contains { abs($0 - start) > parameters.maximumRestDisagreement }
    }

    /// How many samples the session has taken (it ignores those fed after it finished).
    public var sampleCount: Int { trace.count }

    static func filterAngles(_ points: ArraySlice<TracePoint>, mounting: Mounting) -> [Double] {
        var unwrapper = AngleUnwrapper()
        return points.map { unwrapper.unwrap(mounting.sagittalAngle(gravity: $0.gravity)) }
    }
}

/// One sample's fusion state, as the session keeps it for the result.
struct TracePoint: Sendable {
    var time: Double
    /// The filter's gravity direction after the sample.
    var gravity: Vector3
    /// The calibrated accelerometer, g.
    var acceleration: Vector3
    /// Whether the bias-corrected gyro said the sensor was turning (or the bias was still unknown).
    var isTurning: Bool
}
