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
///
/// With a thigh sensor (``update(_:thigh:)``) a second filter follows the thigh, and the angle is the
/// knee's own, ``LegMounting/kneeFlexion(thighGravity:shankGravity:)`` of both gravity directions,
/// expressed as the shank's inclination from the thigh's perpendicular (90° − the knee flexion): what
/// the shank's inclination is with a level thigh, so that every angle and knee angle of the result
/// keeps its meaning, while a thigh that sways, drifts, or lies on a bed no longer enters it. Rests
/// then need both sensors still.
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
    /// The thigh sensor's fusion state; `nil` in a session whose first sample came without a thigh
    /// sample.
    public private(set) var thighFilter: OrientationFilter?
    /// The calibration applied to every sample, if any.
    public let calibration: Calibration?
    /// The thigh sensor's part of the calibration: its own correction, applied to every thigh
    /// sample, and the knee's axis in both sensors' frames.
    public var thighCalibration: ThighCalibration? { calibration?.thigh }
    /// The knee's axis in both sensors' frames, from a calibration; `nil` for sensors strapped
    /// alike (see ``legMounting``).
    public var hingeAxes: HingeAxes? { calibration?.thigh?.hingeAxes }
    /// The mounting from the calibration, or `nil` to estimate it from the session.
    public var knownMounting: Mounting? { calibration?.mounting }

    private var flags: QualityFlags = []
    private let cosineOfMotionThreshold: Double
    private let cosineOfReturnTolerance: Double
    private var firstTime: Double?
    /// Whether the previous sample was still (see ``isStill``).
    private var wasStill = false
    private var returnTime = 0.0
    /// Whether the leg has been farther from the start pose than the return tolerance: only then can
    /// coming back within it be a return.
    private var hasGoneOut = false
    private var startGravity = Vector3.unitZ
    private var thighStartGravity = Vector3.unitZ
    private var startIndex = 0
    private var startEstablished = false
    /// When the rest that confirmed the start pose began, by the shank's rest detector (which counts
    /// a tremor's peaks in it); `nil` when the leg left before a rest was confirmed.
    private var startRestTime: Double?
    /// The trace index from which the motion's rates enter ``scatter``.
    private var scatterStart = 0
    /// Where each filter first knew its gyro bias.
    private var shankBiasKnown: BiasKnown?
    private var thighBiasKnown: BiasKnown?
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
    ///   - calibration: the sensors' calibration, applied to every sample, or `nil` for raw samples
    ///     (the filter then measures the gyro bias at the first rest; accelerometer offsets remain).
    ///     Its thigh section, when there is one, corrects the thigh's samples, and its hinge axes,
    ///     when identified, replace the wiring guide's mounting (both boards strapped alike, see
    ///     ``legMounting``).
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

    /// The leg at rest. Without a thigh sensor, the shank. With one, the knee: both rest detectors
    /// find their sensor still, and once both biases are known the knee turns, by both averaged
    /// gyros, at under the rest threshold. The thigh's sway is no knee motion: a patient rocking
    /// on the chair turns both sensors together, for seconds at up to 3 °/s, while the knee rests.
    private var isAtRest: Bool {
        guard let thighFilter else { return filter.isAtRest }
        guard filter.restDetector.isAtRest, thighFilter.restDetector.isAtRest else { return false }
        guard filter.isBiasKnown, thighFilter.isBiasKnown else { return true }
        let knee = kneePart(
            shank: filter.restDetector.referenceRotationRate - filter.gyroBias,
            thigh: thighFilter.restDetector.referenceRotationRate - thighFilter.gyroBias)
        return knee <= filter.parameters.restGyroThreshold
    }

    /// The size of the knee's own part of a turn (or rate of turn) the shank and the thigh each made,
    /// as vectors in their own frames: the shank's less the thigh's about the calibration's hinge
    /// axes; without them, for boards strapped alike, whose hinge is the same vector in both frames,
    /// the difference of the vectors. A thigh pitching about the hip, parallel to the knee, turns
    /// both alike and drops out.
    private func kneePart(shank: Vector3, thigh: Vector3) -> Double {
        guard let hingeAxes else { return (shank - thigh).length }
        return abs(shank.dot(hingeAxes.shank) - thigh.dot(hingeAxes.thigh))
    }
    private var isStill: Bool { filter.restDetector.isStill && (thighFilter?.restDetector.isStill ?? true) }
    private var isMoving: Bool { filter.restDetector.isMoving || (thighFilter?.restDetector.isMoving ?? false) }

    /// The cosine of the turn from the start pose that the steps follow: without a thigh sensor the
    /// shank's tilt, which also carries the thigh's pitch (a thigh turning the shank back by a few
    /// degrees can keep a small step under the motion threshold); with one, the knee's own part
    /// (``kneePart(shank:thigh:)``) of both tilts. Each tilt is the smallest turn that takes the
    /// sensor's start gravity onto its present one, which for a turn about the level knee axis is
    /// that turn; each filter's accelerometer keeps it from drifting.
    private var startCosine: Double {
        guard let thighGravity = thighFilter?.gravity else { return filter.gravity.dot(startGravity) }
        return cos(
            kneePart(
                shank: Self.tilt(from: startGravity, to: filter.gravity),
                thigh: Self.tilt(from: thighStartGravity, to: thighGravity)))
    }

    /// The rotation vector (radians) of the smallest turn that takes `start` onto `end`.
    private static func tilt(from start: Vector3, to end: Vector3) -> Vector3 {
        let axis = start.cross(end)
        let sine = axis.length
        guard sine > 0 else { return .zero }
        return axis * (atan2(sine, start.dot(end)) / sine)
    }

    // Tests against precomputed cosines.
    private var hasLeftStart: Bool { startCosine < cosineOfMotionThreshold }
    private var isBackAtStart: Bool { startCosine >= cosineOfReturnTolerance }
    /// Back from the flexion step: within the return tolerance, or within half the step's largest
    /// tilt. Early after surgery the foot may slide back by less than the tolerance, and such a
    /// step must still be able to return. cos(θ/2) = √((1 + cos θ)/2). `cosine` is ``startCosine``.
    private func isBackFromFlexion(_ cosine: Double) -> Bool {
        let half = ((1 + flexionFarthestCosine) / 2).squareRoot()
        return cosine >= max(cosineOfReturnTolerance, half)
    }

    /// Feeds one raw sample of a session without a thigh sensor; see ``update(_:thigh:)``.
    @discardableResult
    public mutating func update(_ raw: InertialSample) -> Phase {
        update(raw, thigh: nil)
    }

    /// Feeds one raw shank sample and, with a thigh sensor, the thigh's raw sample at the same
    /// instant; the calibrations, if any, are applied here. Ignored once the session has finished.
    ///
    /// Whether the session has a thigh sensor is decided by its first sample. After that a thigh
    /// sample is ignored by a session without one, and a missing one leaves the thigh where its
    /// last sample put it.
    /// - Returns: the phase after the sample.
    @discardableResult
    public mutating func update(_ raw: InertialSample, thigh rawThigh: InertialSample?) -> Phase {
        guard !isFinished else { return phase }
        let sample = calibration?.corrected(raw) ?? raw
        if firstTime == nil {
            firstTime = sample.time
            if rawThigh != nil {
                thighFilter = OrientationFilter(
                    parameters: filter.parameters, gyroBias: thighCalibration?.sensor == nil ? nil : .zero)
            }
        }
        let interval = trace.last.map { max(0, sample.time - $0.time) } ?? 0
        func noteSaturation(_ raw: InertialSample) {
            if raw.rotationRate.maximumMagnitude >= parameters.gyroSaturationThreshold { flags.insert(.gyroSaturated) }
        }
        noteSaturation(raw)
        let thigh = thighFilter == nil ? nil : rawThigh.map { thighCalibration?.corrected($0) ?? $0 }
        if let rawThigh, thigh != nil { noteSaturation(rawThigh) }
        var point = Self.fuse(sample, thigh: thigh, shank: &filter, thighFilter: &thighFilter, previous: trace.last)
        if shankBiasKnown == nil, filter.isBiasKnown {
            shankBiasKnown = BiasKnown(index: trace.count, bias: filter.gyroBias)
        }
        if thighBiasKnown == nil, let thighFilter, thighFilter.isBiasKnown {
            thighBiasKnown = BiasKnown(index: trace.count, bias: thighFilter.gyroBias)
        }
        // The rest detector's stillness, not `isTurning`: before the first rest the bias is unknown
        // and every sample counts as turning, yet a still leg turns by nothing in a gap.
        if GyroIntegration.isGap(interval: interval, period: filter.shortestInterval), !(isStill && wasStill) {
            flags.insert(.samplesLost)
        }
        wasStill = isStill
        point.isResting = isStill
        trace.append(point)

        switch phase {
        case .settling:
            if isStill || trace.count == 1 {
                startGravity = filter.gravity
                thighStartGravity = point.thighGravity
                startIndex = trace.count - 1
            } else if isMoving {
                flags.insert(.movedAtStart)
            }
            if isAtRest {
                startEstablished = true
                scatterStart = trace.count - 1
                startRestTime = sample.time - filter.restDetector.stillDuration
                phase = .ready
            } else if hasLeftStart {
                // The leg left before it was ever at rest: measure from its last still pose.
                flags.insert(.movedAtStart)
                startEstablished = true
                scatterStart = trace.count - 1
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
            let cosine = startCosine
            flexionFarthestCosine = min(flexionFarthestCosine, cosine)
            if isBackFromFlexion(cosine) {
                phase = .returning
                returnTime = sample.time
            }
        case .returning:
            if !(isFlexionStep ? isBackFromFlexion(startCosine) : isBackAtStart) {
                phase = isFlexionStep ? .flexing : .moving
            } else if isAtRest {
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
            scatter.add(point.rotationRate, interval: interval)
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
        if startEstablished { fuseAgainWithLearntBiases() }
    }

    /// Where a filter first knew its gyro bias: the trace index and the bias there, °/s.
    private struct BiasKnown {
        var index: Int
        var bias: Vector3
    }

    /// How many times a session is fused again at most. The filter learns a bias at the rests over
    /// seconds, so a session whose last rest was short ends with part of a moved bias still to
    /// learn; a second pass, which starts from the first one's, learns the rest of it (the test's
    /// part 2 °/s off: (−0.48, 0.74, 0.04) °/s learnt live, (−1.17, 1.94, −0.78) by the first pass,
    /// (−1.21, 1.99, −0.80) by the second, the truth (−1.2, 2, −0.8)).
    private static let fusingPasses = 2

    /// A sensor whose bias was unknown and first learnt after the start pose, because the leg moved
    /// before its rest was confirmed: up to then its samples were fused with a bias that can be
    /// 20 °/s off, 60° over a three-second extension. Or one whose bias moved by more than
    /// ``SessionParameters/biasChangeToFuseAgain`` from what it was first known to be (a calibrated
    /// part measured warmer than it was calibrated). Its later rests measured the bias, so the
    /// session fuses its samples again from the first, with that bias known, before the result is
    /// computed. The decisions taken live (where the start pose was, when the leg had left and come
    /// back) stand.
    ///
    /// Not the latter when samples were lost: after a gap the filter's orientation carries its
    /// guess of the lost turn until the accelerometer pulls it back, and its estimate of the bias in
    /// motion takes the disagreement for a bias. Fused again with that, the bench's sessions with
    /// FIFO overflows came out worse (with the thigh sensor, the largest knee flexion error went
    /// from 2.6° to 10.1°).
    private mutating func fuseAgainWithLearntBiases() {
        var late = [shankBiasKnown, thighBiasKnown].contains { $0.map { $0.index > startIndex } ?? false }
        func moved(_ filter: OrientationFilter?, from first: Vector3) -> Bool {
            guard let filter, filter.isBiasKnown, !flags.contains(.samplesLost) else { return false }
            return (filter.gyroBias - first).length > parameters.biasChangeToFuseAgain
        }
        func fresh(_ filter: OrientationFilter) -> OrientationFilter {
            OrientationFilter(parameters: filter.parameters, gyroBias: filter.isBiasKnown ? filter.gyroBias : nil)
        }
        // Each pass starts from the bias the one before learnt, which its rests refine further.
        var shankLearnt = filter, thighLearnt = thighFilter
        var shankFrom = shankBiasKnown?.bias ?? .zero, thighFrom = thighBiasKnown?.bias ?? .zero
        for _ in 0..<Self.fusingPasses {
            guard late || moved(shankLearnt, from: shankFrom) || moved(thighLearnt, from: thighFrom) else { break }
            late = false
            var shank = fresh(shankLearnt)
            var thigh = thighLearnt.map(fresh)
            shankFrom = shank.gyroBias
            thighFrom = thigh?.gyroBias ?? .zero
            scatter = RotationScatter()
            for index in trace.indices {
                let sample = InertialSample(
                    time: trace[index].time, acceleration: trace[index].acceleration,
                    rotationRate: trace[index].measuredRotationRate)
                var point = Self.fuse(
                    sample, thigh: trace[index].thighSample, shank: &shank, thighFilter: &thigh,
                    previous: index > 0 ? trace[index - 1] : nil)
                point.isResting = trace[index].isResting
                if index >= scatterStart {
                    scatter.add(
                        point.rotationRate, interval: index == 0 ? 0 : max(0, point.time - trace[index - 1].time))
                }
                trace[index] = point
            }
            shankLearnt = shank
            thighLearnt = thigh
        }
        startGravity = trace[startIndex].gravity
        thighStartGravity = trace[startIndex].thighGravity
    }

    /// Feeds one calibrated shank sample, and the thigh's when it sent one, to the filters and returns
    /// the sample's fusion state (all but ``TracePoint/isResting``). Without a thigh sample the thigh
    /// stays where `previous` left it.
    private static func fuse(
        _ sample: InertialSample, thigh: InertialSample?, shank: inout OrientationFilter,
        thighFilter: inout OrientationFilter?, previous: TracePoint?
    ) -> TracePoint {
        func turn(_ filter: OrientationFilter, _ measured: Vector3) -> (rate: Vector3, isTurning: Bool) {
            let rate = measured - filter.gyroBias
            let threshold = filter.parameters.restGyroThreshold
            return (rate, !filter.isBiasKnown || rate.lengthSquared > threshold * threshold)
        }
        shank.update(sample)
        let (rate, isTurning) = turn(shank, sample.rotationRate)
        var point = TracePoint(
            time: sample.time, gravity: shank.gravity, acceleration: sample.acceleration, rotationRate: rate,
            isTurning: isTurning)
        point.measuredRotationRate = sample.rotationRate
        guard thighFilter != nil else { return point }
        if let thigh {
            thighFilter?.update(thigh)
            point.thighSample = thigh
            point.thighAcceleration = thigh.acceleration
            if let thighTurn = thighFilter.map({ turn($0, thigh.rotationRate) }) {
                point.thighRotationRate = thighTurn.rate
                point.thighIsTurning = thighTurn.isTurning
            }
        } else if let previous {
            point.thighAcceleration = previous.thighAcceleration
            point.thighRotationRate = previous.thighRotationRate
            point.thighIsTurning = previous.thighIsTurning
        }
        point.thighGravity = thighFilter?.gravity ?? .unitZ
        return point
    }

    /// The shank's mounting used for the result: the known one, or the one estimated from the start
    /// pose and the motion so far (about the calibration's hinge axis when there is one). `nil`
    /// before any sample.
    public var mounting: Mounting? {
        if let knownMounting { return knownMounting }
        guard !trace.isEmpty else { return nil }
        if let hingeAxes { return Mounting(shinAxis: startGravity, hingeAxis: hingeAxes.shank) }
        let hinge =
            scatter.principalAxis(perpendicularTo: startGravity)?.axis
            ?? (abs(startGravity.x) < 0.9 ? Vector3.unitX : .unitY)
        guard let provisional = Mounting(shinAxis: startGravity, hingeAxis: hinge) else { return nil }
        // The hinge axis's sign is not observable from the scatter; the task's (first) motion is an
        // extension, so the side of the start pose it stays on is taken as positive: the side of
        // its mean excursion. The filter's: a kick's accelerations swing the accelerometer's
        // direction by tens of degrees at the turn (0.9 g for a leg whipped back at 430 °/s), and
        // beyond half a turn. But across a FIFO overflow in the middle of the movement the filter
        // carries its guess of the lost turn, tens of degrees either way: then the accelerometer's
        // farthest excursion, which no gap moves.
        let end = extensionEnd.map { max(startIndex, $0.index) } ?? trace.count - 1
        let lost = flags.contains(.samplesLost)
        let angles = AngleGeometry(shank: provisional).angles(trace[startIndex...end], fromAccelerometers: lost)
        guard let first = angles.first, let low = angles.min(), let high = angles.max() else { return provisional }
        let isNegative = lost ? first - low > high - first : angles.reduce(0) { $0 + ($1 - first) } < 0
        return isNegative ? provisional.reversed : provisional
    }

    /// The knee's geometry with a thigh sensor; `nil` without one, or before any sample.
    ///
    /// With ``hingeAxes`` from a calibration, the reference pose is the start pose, the thigh
    /// taken as level there (seated on a chair or lying on the back) and the shank at its
    /// inclination under ``mounting`` (0 without a known mounting): the thigh's later turns are
    /// measured, its pitch at the start is not.
    ///
    /// Without them, the boards are strapped alike, as the wiring guide prescribes: each sits on its
    /// segment as the other does on its own, so that with the knee at a right angle (seated, the
    /// shin hanging under a level thigh) both are turned alike, and the knee's axis is the same
    /// vector in both frames, the shank's axis under ``mounting``. The two sensors then read the
    /// same gravity direction at 90° of flexion, in any posture: the knee angles need no
    /// reference pose at all.
    public var legMounting: LegMounting? {
        guard thighFilter != nil, let shank = mounting else { return nil }
        guard let hingeAxes else {
            return LegMounting(
                axes: HingeAxes(thigh: shank.hingeAxis, shank: shank.hingeAxis), thighGravity: shank.shinAxis,
                shankGravity: shank.shinAxis)
        }
        return LegMounting(
            axes: hingeAxes, thighGravity: thighStartGravity, shankGravity: startGravity,
            referenceFlexion: KneeAngle.flexion(shankInclination: shank.sagittalAngle(gravity: startGravity)))
    }

    /// Where the knee angles come from: the thigh sensor when the session has one.
    public var kneeAngleSource: KneeAngleSource { thighFilter == nil ? .seatedAssumption : .thighSensor }

    /// Which accelerometers' errors the result estimates from the session: an uncalibrated one's,
    /// and with one sensor a calibrated one's too, within what a calibration leaves (the offsets'
    /// drift with the die's warming). With the thigh sensor a calibrated pair is taken as it is: its
    /// knee angle does not lean on one accelerometer's turn the way one sensor's does.
    private func estimatedErrors(shank mounting: Mounting, leg: LegMounting?) -> RestAnchoredAngles.EstimatedErrors {
        typealias Sensor = RestAnchoredAngles.EstimatedErrors.Sensor
        guard let leg else {
            return .init(shank: Sensor(mounting: mounting, spreads: calibration == nil ? .uncalibrated : .calibrated))
        }
        return .init(
            shank: calibration == nil ? Sensor(mounting: leg.shank, spreads: .uncalibrated) : nil,
            thigh: thighCalibration?.sensor == nil ? Sensor(mounting: leg.thigh, spreads: .uncalibrated) : nil)
    }

    /// The measurement's result; `nil` until the session has finished.
    ///
    /// The angles are those of ``RestAnchoredAngles``: wherever the leg was held still the
    /// accelerometer's inclination, in between the filter's, corrected by its error at the
    /// surrounding still phases. Transients of the filter (the lag after a fast return, the
    /// overshoot at a turn) therefore count neither as flexion nor as extension.
    public func result() -> RangeOfMotionResult? {
        guard isFinished, let mounting else { return nil }
        let leg = legMounting
        if thighFilter != nil, leg == nil { return nil }
        let points = trace[startIndex...]
        var angles = RestAnchoredAngles(
            points: points, geometry: AngleGeometry(shank: mounting, leg: leg),
            minimumStillSeconds: parameters.stillAnchorSeconds, restTolerance: parameters.returnTolerance,
            estimated: estimatedErrors(shank: mounting, leg: leg))
        // Without a mounting the start pose defines 0, unless two boards strapped alike measure
        // the knee itself.
        if knownMounting == nil, leg == nil || hingeAxes != nil, let start = angles.values.first {
            angles.values = angles.values.map { $0 - start }
        }
        guard var result = RangeOfMotionResult(angles: angles.values, flags: flags) else { return nil }
        result.measurementProtocol = parameters.measurementProtocol
        result.kneeAngleSource = kneeAngleSource
        if leg == nil, isSeatedAssumptionBroken(angles: angles) {
            result.flags.insert(.notSeated)
        }
        if result.minimum < parameters.plausibleMinimum || result.maximum > parameters.plausibleMaximum {
            result.flags.insert(.implausible)
        }
        if result.range < parameters.motionThreshold {
            result.flags.insert(.noMovement)
        }
        if angles.largestRestWander > parameters.maximumStillWander
            || isRestUnsteady(angles, geometry: AngleGeometry(shank: mounting, leg: leg))
            || angles.largestRestTurnRate > parameters.maximumStillTurnRate
        {
            result.flags.insert(.unsteady)
        }
        // Only a real motion shows whether it was about one hinge; a still leg's noise has no axis.
        if knownMounting == nil, hingeAxes == nil, result.range >= parameters.motionThreshold,
            let (_, offAxis) = scatter.principalAxis(perpendicularTo: startGravity),
            offAxis > parameters.maximumOffHingeFraction
        {
            result.flags.insert(.implausible)
        }
        return result
    }

    /// Whether the leg turned within a rest though the rest detector took it for resting: by the
    /// gyro (``RestSway``) over every rest, and by the accelerometer's steady turn over the start's
    /// rest judged whole. The rest that confirmed the start pose began 1.5 s or more before it,
    /// where the patient was already asked to hold still, and a thigh that swayed there slowly
    /// enough to pass for rest moved.
    private func isRestUnsteady(_ angles: RestAnchoredAngles, geometry: AngleGeometry) -> Bool {
        var restStart = startIndex
        if angles.restingRuns.first?.lowerBound == 0, var from = startRestTime, let firstTime {
            // A leg that came to rest after the first sample may have swung into it: that settling
            // is left out as in every other rest, though never the start pose itself.
            if from > firstTime { from += RestAnchoredAngles.comingToRestSeconds }
            while restStart > 0, trace[restStart - 1].time >= from { restStart -= 1 }
        }
        let lead = startIndex - restStart
        var rests = angles.restingRuns.map { ($0.lowerBound + lead)..<($0.upperBound + lead) }
        if lead > 0 { rests[0] = 0..<rests[0].upperBound }
        if RestSway.largestWander(trace[restStart...], rests: rests, hinge: geometry.shank.hingeAxis)
            > parameters.maximumStillWander
        {
            return true
        }
        guard lead > 0, let first = rests.first else { return false }
        let turn = RestAnchoredAngles.steadyTurnRate(
            trace[(restStart + first.lowerBound)..<(restStart + first.upperBound)], geometry: geometry)
        return abs(turn ?? 0) > parameters.maximumStillTurnRate
    }

    /// Whether the rests visibly contradict the seated assumption of the knee angles: the leg was at
    /// rest at the start, at the end of the arc's extension step and at the finish; a still thigh
    /// puts a returned foot back at about the start's inclination. With a known mounting, the start
    /// itself must also be near a hanging shin.
    private func isSeatedAssumptionBroken(angles: RestAnchoredAngles) -> Bool {
        let values = angles.values
        guard let start = values.first, let finish = values.last else { return false }
        if knownMounting != nil, abs(start) > parameters.maximumStartInclination { return true }
        var rests: [Double] = []
        if let extensionEnd, extensionEnd.atRest, extensionEnd.index >= startIndex {
            rests.append(values[extensionEnd.index - startIndex])
        }
        // The finish is a rest when the session saw the leg come to rest, and also when it was
        // stopped first with the leg held still near the start pose: what a rest is everywhere else.
        if case .finished(.returned) = phase {
            rests.append(finish)
        } else if angles.endsStill, abs(finish - start) <= parameters.returnTolerance {
            rests.append(finish)
        }
        return rests.contains { abs($0 - start) > parameters.maximumRestDisagreement }
    }

    /// How many samples the session has taken (it ignores those fed after it finished).
    public var sampleCount: Int { trace.count }

}

/// How the session's angle follows from the sensors' gravity directions (or averaged
/// accelerometers): the shank's sagittal inclination with one sensor; with a thigh sensor, the
/// inclination that gives the measured knee flexion under a level thigh.
struct AngleGeometry {
    var shank: Mounting
    var leg: LegMounting?

    func angle(shank shankGravity: Vector3, thigh thighGravity: Vector3) -> Double {
        guard let leg else { return shank.sagittalAngle(gravity: shankGravity) }
        return KneeAngle.seatedInclination(
            flexion: leg.kneeFlexion(thighGravity: thighGravity, shankGravity: shankGravity))
    }

    /// The angle at each of `points`, unwrapped: from the filters' gravity directions, or from the
    /// accelerometers as they read.
    func angles(_ points: some Sequence<TracePoint>, fromAccelerometers: Bool = false) -> [Double] {
        var unwrapper = AngleUnwrapper()
        return points.map {
            unwrapper.unwrap(
                fromAccelerometers
                    ? angle(shank: $0.acceleration, thigh: $0.thighAcceleration)
                    : angle(shank: $0.gravity, thigh: $0.thighGravity))
        }
    }

    /// The angle's rate by the gyros, °/s: a sensor turning by +α about its hinge raises its
    /// sagittal angle by α, and with a thigh sensor the angle is the shank's less the thigh's.
    func rate(_ point: TracePoint) -> Double {
        guard let leg else { return point.rotationRate.dot(shank.hingeAxis) }
        return point.rotationRate.dot(leg.shank.hingeAxis) - point.thighRotationRate.dot(leg.thigh.hingeAxis)
    }
}

/// One sample's fusion state, as the session keeps it for the result.
struct TracePoint: Sendable {
    var time: Double
    /// The filter's gravity direction after the sample.
    var gravity: Vector3
    /// The calibrated accelerometer, g.
    var acceleration: Vector3
    /// The calibrated gyro less the filter's bias estimate at the time, °/s.
    var rotationRate: Vector3
    /// Whether the bias-corrected gyro said the sensor was turning (or the bias was still unknown).
    var isTurning: Bool
    /// The thigh filter's gravity direction, with a thigh sensor.
    var thighGravity = Vector3.unitZ
    /// The calibrated thigh accelerometer, g, with a thigh sensor.
    var thighAcceleration = Vector3.zero
    /// The calibrated thigh sample as the thigh's filter took it; nil where the thigh sent none.
    var thighSample: InertialSample?
    /// Like ``rotationRate``, for the thigh sensor.
    var thighRotationRate = Vector3.zero
    /// Like ``isTurning``, for the thigh sensor.
    var thighIsTurning = false

    /// Whether the rest detectors called the sensors still.
    var isResting = false
    /// The calibrated gyro as measured, °/s: at rest the filter's bias estimate follows a slow turn
    /// of the whole leg, which ``rotationRate`` then no longer shows.
    var measuredRotationRate = Vector3.zero

    /// Whether either sensor was turning: a still phase needs both still.
    var isEitherTurning: Bool { isTurning || thighIsTurning }

    /// The gravity direction about which `reading` (this point's accelerometer, or it less a lever
    /// arm's acceleration) is read for its errors: the filter's; after a gap in the movement the
    /// reading's own, as the filter's then carries its guess of the lost turn.
    func up(of reading: Vector3, isAfterGap: Bool) -> Vector3 {
        isAfterGap ? reading.normalized ?? gravity : gravity
    }
}
