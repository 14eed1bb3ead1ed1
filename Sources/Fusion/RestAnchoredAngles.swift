/// The sagittal angles of a session, anchored to the accelerometer wherever the leg was held still.
///
/// A causal filter lags: after a fast movement its estimate carries the gyro's scale and clock errors
/// until the accelerometer has pulled it back, seconds later. Read sample by sample, that lag shows as
/// flexion after the return or as extension at a turn, and `maximum − minimum` counts it. Here the whole
/// session is known, so it is smoothed as inertial navigation smooths between zero-velocity updates:
/// - where the gyro says the leg is not turning for at least `minimumStillSeconds` (a *still phase*),
///   the inclination is the accelerometer's, averaged over a short centred window: with no rotation
///   and no movement it measures gravity alone (with a thigh sensor, both gyros must say so, and the
///   angle is that of both averaged accelerometers); an accelerometer whose errors are estimated
///   (uncalibrated, or calibrated with one sensor: see ``EstimatedErrors``) is taken less the tilt
///   they are estimated to give it in that pose. Near the
///   phase's ends, where the window would be cut short, the angle of the nearest whole window is
///   carried on by the gyro;
/// - between two still phases, the gyros' turn of the angle, corrected by the gain error the
///   session's still phases show (a leg held at its peak shows it; the peak of a movement that is
///   never held would otherwise carry it whole), with the difference left at the next still phase,
///   a residual bias, spread evenly in time. The filter's own lag and the lever-arm accelerations
///   that its accelerometer correction takes in during the movement do not enter;
/// - before the first still phase and after the last, where nothing bounds the gyro's drift, the
///   filter's angle less its error at the nearest still phase.
struct RestAnchoredAngles {
    /// One angle per point, degrees, unwrapped.
    var values: [Double]
    /// The largest change of the inclination within one rest, degrees: a leg that was still turns
    /// by well under half a degree; more means the thigh or the body moved.
    ///
    /// A rest is a still phase near the start pose (the start, between the arc's steps, the finish),
    /// where the leg hangs relaxed. A held extension or flexion is not one: a weak leg held up sags
    /// by a degree or more, which is the knee's own turn, not the thigh's. The change is the
    /// accelerometer's; with one sensor the session also judges the gyro's over ``restingRuns``
    /// (``RestSway``). With a thigh sensor the knee angle does not depend on the thigh.
    private(set) var largestRestWander = 0.0

    /// With one sensor, the runs of points the rest detector called rest near the start pose
    /// (relative to the slice's start), in which the session judges the gyro's turn; empty with a
    /// thigh sensor.
    private(set) var restingRuns: [Range<Int>] = []

    /// The largest steady turn (°/s) of the accelerometer's inclination within one rest, where it
    /// stood clear of the noise; 0 when none did. With the leg hanging still on a still thigh the
    /// accelerometer reads a fixed gravity direction; a thigh sliding or swaying pitches the shank
    /// with it, more slowly than the rest threshold can see, and that shows as such a turn.
    private(set) var largestRestTurnRate = 0.0

    /// Whether the points end in a still phase: a session stopped before the rest detector
    /// confirmed the leg's rest (a button pressed, a recording cut short) may still have ended
    /// with the leg held still.
    private(set) var endsStill = false

    /// Half-width of the accelerometer average in a still phase, seconds: a hundred samples at
    /// 200 Hz, where the MPU-6050's noise averages to about 0.03°.
    static let averagingHalfWidth = 0.25

    /// The accelerometers whose errors' tilts are estimated (``AccelerometerPoseErrors``): each the
    /// ``Mounting`` the angle reads that sensor under and how far its errors may be; `nil` for one
    /// taken as it is.
    struct EstimatedErrors {
        struct Sensor {
            var mounting: Mounting
            var spreads: AccelerometerPoseErrors.Spreads
        }
        var shank: Sensor?
        var thigh: Sensor?
    }

    /// - Parameters:
    ///   - estimated: the sensors whose accelerometers' tilts are estimated, pose by pose, from
    ///     the session itself. A thigh that barely turns in a session leaves its tilt to the prior,
    ///     about nil; it is then the same in every pose, and the knee angles carry it as a constant.
    ///   - restTolerance: degrees from the start pose within which a still phase is a rest.
    init(
        points: ArraySlice<TracePoint>, geometry: AngleGeometry, minimumStillSeconds: Double,
        restTolerance: Double, estimated: EstimatedErrors
    ) {
        let filterAngles = geometry.angles(points)
        let base = points.startIndex
        let runs = Self.stillRuns(points, minimumSeconds: minimumStillSeconds)
        endsStill = runs.last?.upperBound == points.count
        func isRest(_ run: Range<Int>) -> Bool {
            guard let start = filterAngles.first else { return false }
            return abs(filterAngles[(run.lowerBound + run.upperBound) / 2] - start) <= restTolerance
        }
        largestRestTurnRate = runs.filter(isRest).reduce(0) { largest, run in
            let phase = points[(base + run.lowerBound)..<(base + run.upperBound)]
            return max(largest, abs(Self.steadyTurnRate(phase, geometry: geometry) ?? 0))
        }
        if geometry.leg == nil {
            restingRuns = Self.stillRuns(points, minimumSeconds: 0) { $0.isResting }.filter(isRest)
        }
        var anchors = runs.map { run in
            var anchor = Anchor(run: run, prefix: [.zero], thighPrefix: [.zero])
            anchor.prefix.reserveCapacity(run.count + 1)
            anchor.thighPrefix.reserveCapacity(run.count + 1)
            for index in run {
                anchor.prefix.append(anchor.prefix[anchor.prefix.count - 1] + points[base + index].acceleration)
                anchor.thighPrefix.append(
                    anchor.thighPrefix[anchor.thighPrefix.count - 1] + points[base + index].thighAcceleration)
            }
            return anchor
        }
        let sensors = [
            (estimated.shank, \Anchor.prefix, \TracePoint.rotationRate, \Anchor.shankTurn),
            (estimated.thigh, \Anchor.thighPrefix, \TracePoint.thighRotationRate, \Anchor.thighTurn),
        ]
        for (sensor, prefix, _, _) in sensors {
            guard let sensor else { continue }
            anchors = anchors.filter {
                AccelerometerPoseErrors.isPlaceable($0[keyPath: prefix].last!, mounting: sensor.mounting)
            }
        }
        // The movements between still phases show the shank's errors at every pose they pass, where
        // the lever arm is the shank's alone: not with a thigh sensor, whose knee may be accelerated
        // itself, and whose seated thigh barely moves.
        var shankErrors: AccelerometerPoseErrors.Errors?
        for (sensor, prefix, rate, turn) in sensors {
            let isShank = turn == \Anchor.shankTurn
            guard let sensor,
                let errors = Self.accelerometerErrors(
                    points, anchors.map { ($0.run, $0[keyPath: prefix]) }, sensor, rate,
                    withMovements: isShank && geometry.leg == nil)
            else { continue }
            if isShank { shankErrors = errors }
            // A turn by +α about the hinge lowers the sagittal angle by α.
            for (index, tilt) in errors.tilts.enumerated() {
                anchors[index][keyPath: turn] = sensor.mounting.hingeAxis * (tilt * Double.pi / 180)
            }
        }
        guard !anchors.isEmpty else {
            values = filterAngles
            return
        }
        // The accelerometer's angle at each point of a still phase, unwrapped as the filter's.
        var anchored = [Double](repeating: .nan, count: filterAngles.count)
        for anchor in anchors {
            let run = anchor.run, prefix = anchor.prefix, thighPrefix = anchor.thighPrefix
            var low = 0, high = 0
            var wanderLow = Double.infinity, wanderHigh = -Double.infinity
            // The wander, as the turn, leaves out the leg coming to rest and setting off again.
            let settled = points[base + run.lowerBound].time + Self.comingToRestSeconds
            let leaving = points[base + run.upperBound - 1].time - Self.settingOffSeconds
            for index in run {
                let time = points[base + index].time
                while points[base + run.lowerBound + low].time < time - Self.averagingHalfWidth { low += 1 }
                while high + 1 < run.count,
                    points[base + run.lowerBound + high + 1].time <= time + Self.averagingHalfWidth
                { high += 1 }
                let measured = geometry.angle(
                    shank: (prefix[high + 1] - prefix[low]).rotated(by: anchor.shankTurn),
                    thigh: (thighPrefix[high + 1] - thighPrefix[low]).rotated(by: anchor.thighTurn))
                // The same turn as the filter's unwrapped angle.
                anchored[index] = filterAngles[index] + AngleUnwrapper.halfTurn(measured - filterAngles[index])
                guard time >= settled, time <= leaving else { continue }
                wanderLow = min(wanderLow, anchored[index])
                wanderHigh = max(wanderHigh, anchored[index])
            }
            if isRest(run), wanderHigh >= wanderLow {
                largestRestWander = max(largestRestWander, wanderHigh - wanderLow)
            }
        }
        // The accelerometer between still phases weighs the gyro's gain where its errors were
        // estimated with the movements: with one sensor, whose lever arm is the shank's alone.
        let movement = geometry.leg == nil ? shankErrors.map { Movement(mounting: geometry.shank, errors: $0) } : nil
        values = Self.joined(
            filterAngles: filterAngles, anchored: anchored,
            phases: anchors.map { (first: $0.run.lowerBound, last: $0.run.upperBound - 1) },
            turns: GyroTurns(points, rate: geometry.rate), points: points, geometry: geometry, movement: movement)
    }

    /// The angles from the filter's and the accelerometer's (`anchored`, at the still `phases`,
    /// relative to the slice's start; NaN elsewhere): at a still phase the accelerometer's angle;
    /// between two, the gyros' turn with the gain error the session shows, and what is left at the
    /// next still phase spread evenly in time; before the first and after the last, the filter's.
    private static func joined(
        filterAngles: [Double], anchored measured: [Double], phases: [(first: Int, last: Int)], turns: GyroTurns,
        points: ArraySlice<TracePoint>, geometry: AngleGeometry, movement: Movement?
    ) -> [Double] {
        let gyro = turns.angles, base = points.startIndex
        // Within a still phase, the accelerometer's angle where its window lies whole within the
        // phase; nearer the phase's ends, that angle carried on by the gyro: a window cut short by the
        // end leans into the phase, by a quarter of a degree on a leg sagging at 2 °/s.
        var corrected = measured
        for phase in phases {
            let start = points[base + phase.first].time, end = points[base + phase.last].time
            let middle = (phase.first + phase.last) / 2, indices = phase.first...phase.last
            let firstWhole = indices.first { points[base + $0].time >= start + Self.averagingHalfWidth }
            let lastWhole = indices.last { points[base + $0].time <= end - Self.averagingHalfWidth }
            let early = min(firstWhole ?? middle, middle), late = max(lastWhole ?? middle, middle)
            for index in phase.first..<early { corrected[index] = measured[early] - (gyro[early] - gyro[index]) }
            for index in (late + 1)..<(phase.last + 1) {
                corrected[index] = measured[late] + (gyro[index] - gyro[late])
            }
        }
        let gain = 1 + Self.gyroGainError(phases, angles: corrected, turns: turns, points: points, movement: movement)
        func path(from anchor: Int, to index: Int) -> Double {
            corrected[anchor] + gain * (gyro[index] - gyro[anchor])
        }
        let anchorVariance = 2 * AccelerometerPoseErrors.inclinationSigma * AccelerometerPoseErrors.inclinationSigma
        // From the anchor at `start` on to `end` (exclusive), across `gaps`: the gyro's path plus the
        // turns lost in them, and, when `closing`, the residual bias up to the anchor at `end`.
        func bridge(from start: Int, to end: Int, gaps: [Int], closing: Bool) {
            let startTime = points[base + start].time
            let closingAnchor =
                closing
                ? (corrected[end] - path(from: start, to: end), points[base + end].time - startTime, anchorVariance)
                : nil
            let lost = LostTurns(gaps: gaps, end: closingAnchor, fitsLeverArm: movement != nil) { position in
                Self.lostTurnObservations(
                    (start + 1)..<end, from: start, path: { path(from: start, to: $0) }, about: position,
                    points: points,
                    turns: turns, geometry: geometry, movement: movement)
            }
            for index in (start + 1)..<end {
                corrected[index] =
                    path(from: start, to: index)
                    + lost.offset(at: index, seconds: points[base + index].time - startTime)
            }
        }
        for (before, after) in zip(phases, phases.dropFirst()) {
            let start = before.last, end = after.first
            guard end > start + 1 else { continue }
            let gaps = turns.gaps(in: (start + 1)...end)
            guard gaps.isEmpty else {
                bridge(from: start, to: end, gaps: gaps, closing: true)
                continue
            }
            let startTime = points[base + start].time, span = points[base + end].time - startTime
            let residual = corrected[end] - path(from: start, to: end)
            for index in (start + 1)..<end {
                let fraction = span > 0 ? (points[base + index].time - startTime) / span : 0
                corrected[index] = path(from: start, to: index) + residual * fraction
            }
        }
        // Before the first still phase and after the last, nothing bounds the gyro's drift: the
        // filter's angle, less its error at the nearest still phase. Across a gap that error jumps
        // by the filter's own guess of the lost turn: before the first phase the session's start,
        // a rest the filter has settled on, then anchors the angle; after the last, the gyro's path
        // goes on from it, as it does when the filter had not settled from an earlier gap.
        if let first = phases.first, let last = phases.last {
            let gapsBefore = first.first > 0 ? turns.gaps(in: 1...first.first) : []
            if gapsBefore.isEmpty {
                let firstError = filterAngles[first.first] - corrected[first.first]
                for index in 0..<first.first { corrected[index] = filterAngles[index] - firstError }
            } else {
                corrected[0] = filterAngles[0]
                bridge(from: 0, to: first.first, gaps: gapsBefore, closing: true)
            }
            let gapsAfter =
                last.last + 1 < corrected.count ? turns.gaps(in: (last.last + 1)...(corrected.count - 1)) : []
            let lastError = filterAngles[last.last] - corrected[last.last]
            let isFilterSettled =
                abs(lastError - (filterAngles[last.first] - corrected[last.first])) <= Self.settledFilterDrift
            if gapsAfter.isEmpty, isFilterSettled {
                for index in (last.last + 1)..<corrected.count { corrected[index] = filterAngles[index] - lastError }
            } else {
                bridge(from: last.last, to: corrected.count, gaps: gapsAfter, closing: false)
            }
        }
        return corrected
    }

    /// How far (degrees) the filter's error may move over the last still phase for it to be taken
    /// as settled after it. Settled, it moves by hundredths of a degree; after a gap in the middle
    /// of the return it carries its guess of the lost turn, tens of degrees, and pulls that back to
    /// the accelerometer over seconds, so that its error after the phase is not the error at it.
    static let settledFilterDrift = 1.0

    /// The accelerometer's readings of the turns lost in gaps (``LostTurns``) at the points
    /// `indices` after the anchor at `anchor`, whose gyro path is `path`: with one sensor its angle
    /// less its pose's estimated tilt and the lever arm's acceleration about a guess of the
    /// `position`, whose lean is fitted; with a thigh sensor the knee's angle, whose lever arms
    /// count as noise. Points beside a gap, whose rate's derivative spans it, are left out.
    private static func lostTurnObservations(
        _ indices: Range<Int>, from anchor: Int, path: (Int) -> Double, about position: (shin: Double, forward: Double),
        points: ArraySlice<TracePoint>, turns: GyroTurns, geometry: AngleGeometry, movement: Movement?
    ) -> [LostTurns.Observation] {
        let base = points.startIndex, correlation = LeverArm.correlatedSamples(period: turns.period)
        let mounting = movement?.mounting ?? geometry.leg?.shank ?? geometry.shank, hinge = mounting.hingeAxis
        let typical = LeverArm.typicalDistance
        var observations: [LostTurns.Observation] = []
        for index in indices where Self.isBesideNoGap(index, turns) {
            let point = points[base + index]
            let (rate, angularAcceleration) = Self.hingeTurn(points, at: index) { $0.rotationRate.dot(hinge) }
            let expected = path(index)
            let gapsBefore = turns.gapsBefore[index] - turns.gapsBefore[anchor]
            let seconds = point.time - points[base + anchor].time
            guard let movement else {
                guard
                    let lean = LeverArm.lean(
                        at: point.acceleration, rate: rate, angularAcceleration: angularAcceleration, mounting: mounting
                    )
                else { continue }
                let measured = geometry.angle(shank: point.acceleration, thigh: point.thighAcceleration)
                let unfitted = typical * typical * (lean.shin * lean.shin + lean.forward * lean.forward)
                observations.append(
                    LostTurns.Observation(
                        gapsBefore: gapsBefore, seconds: seconds, lean: (0, 0),
                        value: AngleUnwrapper.halfTurn(measured - expected),
                        variance: (lean.variance + unfitted) * correlation))
                continue
            }
            guard
                let reading = movement.reading(
                    point, rate: rate, angularAcceleration: angularAcceleration, about: position, path: expected,
                    isAfterGap: gapsBefore > 0)
            else { continue }
            observations.append(
                LostTurns.Observation(
                    gapsBefore: gapsBefore, seconds: seconds, lean: reading.lean, value: reading.value,
                    variance: reading.variance * correlation))
        }
        return observations
    }

    /// The gyro's gain error on the angle (its scale error about the hinge and the sample clock's):
    /// between two consecutive still phases the accelerometer's change of angle (from the end of
    /// one to the start of the next, in `angles`) less the gyro's turn is that error times the
    /// turn, plus the residual bias's drift. A leg held up after an extension shows it to a few
    /// hundredths of a percent; phases at one pose show nothing of it, and the estimate stays near
    /// nil, the prior of ``AccelerometerPoseErrors/gyroGainSigma``.
    ///
    /// With `movement` (one sensor: its mounting and estimated errors) every sample between the two
    /// phases shows it as well: its accelerometer angle, less its pose's tilt and the path from the
    /// first phase, is the gain
    /// error times the turn, plus the drift, plus the lever arm's accelerations seen through the
    /// angle. Those are linear in the sensor's unknown position from the knee's axis, which is
    /// fitted with the rest, so an extension that is never held still shows its gain too.
    private static func gyroGainError(
        _ phases: [(first: Int, last: Int)], angles: [Double], turns: GyroTurns, points: ArraySlice<TracePoint>,
        movement: Movement?
    ) -> Double {
        let inclination = AccelerometerPoseErrors.inclinationSigma
        let pairs = Array(zip(phases, phases.dropFirst()))
        let base = points.startIndex
        // Unknowns: the gain error, the sensor's position from the knee's axis along the shin and
        // forward axes (metres), each pair's residual bias (°/s), and the step of each gap between
        // two still phases (``LostTurns``), under their priors.
        let gaps = pairs.map { turns.gaps(in: ($0.0.last + 1)...$0.1.first) }
        let firstSteps = gaps.reduce(into: [3 + pairs.count]) { $0.append($0[$0.count - 1] + $1.count) }
        let count = firstSteps[firstSteps.count - 1]
        let priors =
            [AccelerometerPoseErrors.gyroGainSigma, LeverArm.positionSigma, LeverArm.positionSigma]
            + [Double](repeating: AccelerometerPoseErrors.biasSigma, count: pairs.count)
            + [Double](repeating: LostTurns.stepSigma, count: count - firstSteps[0])
        // The steps of pair `pair`'s gaps before point `index`.
        func steps(_ pair: Int, before index: Int) -> [(Int, Double)] {
            gaps[pair].enumerated().filter { $0.element <= index }.map { (firstSteps[pair] + $0.offset, 1.0) }
        }
        let stillPairs = pairs.enumerated().map { pair, phases in
            let start = phases.0.last, end = phases.1.first
            let turn = turns.angles[end] - turns.angles[start]
            return GainObservation(
                row: [(0, turn), (3 + pair, points[base + end].time - points[base + start].time)]
                    + steps(pair, before: end),
                value: angles[end] - angles[start] - turn, variance: 2 * inclination * inclination)
        }
        // Between two still phases, the accelerometer less the lever arm's acceleration at a guess
        // of the position reads the gyro's path plus the lean of what the guess missed.
        func moving(about position: (shin: Double, forward: Double), _ movement: Movement) -> [GainObservation] {
            var observations: [GainObservation] = []
            let mounting = movement.mounting, hinge = mounting.hingeAxis
            for (pair, (before, after)) in pairs.enumerated() where after.first > before.last + 2 {
                let start = before.last, startTime = points[base + start].time
                for index in (start + 1)..<after.first where Self.isBesideNoGap(index, turns) {
                    let point = points[base + index]
                    let (rate, angularAcceleration) = Self.hingeTurn(points, at: index) { $0.rotationRate.dot(hinge) }
                    let turn = turns.angles[index] - turns.angles[start]
                    guard
                        let reading = movement.reading(
                            point, rate: rate, angularAcceleration: angularAcceleration, about: position,
                            path: angles[start] + turn, isAfterGap: !turns.isComplete(from: start, to: index))
                    else { continue }
                    observations.append(
                        GainObservation(
                            row: [
                                (0, turn), (1, reading.lean.shin), (2, reading.lean.forward),
                                (3 + pair, point.time - startTime),
                            ] + steps(pair, before: index),
                            value: reading.value, variance: reading.variance))
                }
            }
            return observations
        }
        // The posterior mean, the moving samples' variances taken `scale` times.
        func fit(_ moving: [GainObservation], scale: Double) -> [Double]? {
            var precision = (0..<count).map { row in
                (0..<count).map { $0 == row ? 1 / (priors[row] * priors[row]) : 0 }
            }
            var information = [Double](repeating: 0, count: count)
            for (observations, scale) in [(stillPairs, 1.0), (moving, scale)] {
                for observation in observations {
                    let variance = observation.variance * scale
                    for (i, a) in observation.row {
                        information[i] += a * observation.value / variance
                        for (j, b) in observation.row { precision[i][j] += a * b / variance }
                    }
                }
            }
            return solve(precision, information)
        }
        guard var unknowns = fit([], scale: 1) else { return 0 }
        guard let movement else { return unknowns[0] }
        // The lean is linear in the position only near a guess of it (a brisk movement leans the
        // angle by several degrees): the still phases' fit guesses nil, the next the first's fit.
        let correlation = LeverArm.correlatedSamples(period: turns.period)
        var observations: [GainObservation] = []
        for _ in 0..<2 {
            observations = moving(about: (unknowns[1], unknowns[2]), movement)
            unknowns = fit(observations, scale: correlation) ?? unknowns
        }
        // A leg that is not the model's (skin sliding over the muscle, a knee turning off its hinge)
        // leaves the moving samples farther from the fit than their noise: they then count for as
        // much less as their scatter says.
        let misfit =
            observations.reduce(0) { sum, observation in
                let residual = observation.value - observation.row.reduce(0) { $0 + $1.1 * unknowns[$1.0] }
                return sum + residual * residual / observation.variance
            } / Double(max(observations.count, 1))
        if misfit > 1, let refit = fit(observations, scale: correlation * misfit) { unknowns = refit }
        return unknowns[0]
    }

    /// What the movements between still phases are read with: the shank sensor's mounting, and its
    /// accelerometer's estimated errors, whose tilt at each sample's pose is taken out.
    private struct Movement {
        var mounting: Mounting
        var errors: AccelerometerPoseErrors.Errors

        /// What the accelerometer reads of the angle at a moving `point`, turning at `rate` (rad/s)
        /// with `angularAcceleration` (rad/s²), about a guess of the sensor's `position`: its
        /// sagittal angle less the lever arm's acceleration at the guess and less its pose's
        /// estimated tilt, less the gyro's `path` there, plus the lean the guess took out. That
        /// value is linear in the position, with the coefficients `lean` (degrees per metre), and
        /// `variance` is the angle's own (``LeverArm/lean(at:rate:angularAcceleration:mounting:)``).
        /// `nil` where the angle has no footing.
        func reading(
            _ point: TracePoint, rate: Double, angularAcceleration: Double,
            about position: (shin: Double, forward: Double),
            path: Double, isAfterGap: Bool
        ) -> (value: Double, lean: (shin: Double, forward: Double), variance: Double)? {
            let gravity =
                point.acceleration
                - LeverArm.acceleration(
                    shin: position.shin, forward: position.forward, rate: rate,
                    angularAcceleration: angularAcceleration, mounting: mounting)
            let up = point.up(of: gravity, isAfterGap: isAfterGap)
            guard
                let lean = LeverArm.lean(
                    at: gravity, rate: rate, angularAcceleration: angularAcceleration, mounting: mounting),
                let tilt = errors.tilt(of: gravity, up: up, mounting: mounting)
            else { return nil }
            let angle = mounting.sagittalAngle(gravity: gravity) - tilt
            return (
                AngleUnwrapper.halfTurn(angle - path) + lean.shin * position.shin + lean.forward * position.forward,
                (lean.shin, lean.forward), lean.variance
            )
        }
    }

    /// The turn about the hinge at point `offset` of `points` (relative to the slice's start): the
    /// rate (rad/s) that `hingeRate` reads in °/s, and its rate of change (rad/s²) differenced over
    /// the neighbouring points.
    private static func hingeTurn(
        _ points: ArraySlice<TracePoint>, at offset: Int, hingeRate: (TracePoint) -> Double
    ) -> (rate: Double, angularAcceleration: Double) {
        let radians = Double.pi / 180, base = points.startIndex
        let previous = points[base + offset - 1], next = points[base + offset + 1]
        return (
            hingeRate(points[base + offset]) * radians,
            (hingeRate(next) - hingeRate(previous)) * radians / (next.time - previous.time)
        )
    }

    /// Whether point `offset` (relative to the slice's start) and its neighbours have no gap
    /// between them: the rate's derivative at a point beside a gap would be differenced across it.
    private static func isBesideNoGap(_ offset: Int, _ turns: GyroTurns) -> Bool {
        offset > 0 && offset + 1 < turns.gapsBefore.count && turns.isComplete(from: offset - 1, to: offset + 1)
    }

    /// One observation of the gyro's gain error: its coefficients on the unknowns, its value and
    /// variance.
    private struct GainObservation {
        var row: [(Int, Double)]
        var value: Double
        var variance: Double
    }

    /// A still phase that anchors the angle.
    private struct Anchor {
        var run: Range<Int>
        /// Running sums of each accelerometer over the phase, for the centred averages; the last is
        /// the whole phase's.
        var prefix: [Vector3]
        var thighPrefix: [Vector3]
        /// The rotations about each sensor's hinge that take its estimated tilt out of its
        /// accelerometer; zero for a calibrated sensor.
        var shankTurn = Vector3.zero
        var thighTurn = Vector3.zero
    }

    /// Seconds left out at the start of a still phase for its wander and turn: a leg let fall from
    /// the extension swings past the rest like a damped pendulum (a period of about 1.5 s), a turn
    /// of the knee's own. The rest detector calls it still once the swing turns it at under 2 °/s,
    /// about ±0.5°, and half a second later a typically damped swing is down to a third of that.
    static let comingToRestSeconds = 0.5

    /// Seconds left out at the end of a still phase: setting off again accelerates the sensor,
    /// which tilts the accelerometer for a moment.
    static let settingOffSeconds = 0.25

    /// Seconds from the middle of a still phase at which its parabola's rate is read. Near its
    /// turning point a sway A sin ωt is a parabola, whose rate at t, Aω²t, overstates the sway's own,
    /// Aω sin ωt, by ωt / sin ωt: by at most 21 % within a second for sways slower than 6 s, but by
    /// 57 % two seconds out on a patient sitting almost still (±0.3° over 8 s), who is not to be
    /// flagged.
    static let parabolaReach = 1.0

    /// The largest rate (°/s) at which the accelerometer's inclination turned within the interior of
    /// a still phase; `nil` when the interior is shorter than half a second, or no rate stands four
    /// standard errors clear of zero (its noise: a still leg reaches that once in 15 000 phases).
    ///
    /// Two fits through every sample: a line, whose slope is the steady turn of a thigh sliding; and
    /// a parabola, whose rate on either side of the phase's middle (at its ends, or ``parabolaReach``
    /// from the middle) is what a sway shows when the rest falls on its turning point. There the
    /// mean rate is nil, yet a ±2° sway over 8 s turns the shank at 0.43 °/s a second to either
    /// side. The parabola counts only when its curvature stands four standard errors clear of zero,
    /// and its rates, noisier than the line's slope, are tested against their own standard errors.
    static func steadyTurnRate(_ phase: ArraySlice<TracePoint>, geometry: AngleGeometry) -> Double? {
        guard let first = phase.first?.time, let last = phase.last?.time else { return nil }
        let interior = phase.filter { $0.time >= first + comingToRestSeconds && $0.time <= last - settingOffSeconds }
        guard interior.count >= 10, let start = interior.first?.time, let end = interior.last?.time,
            end - start >= 0.5
        else { return nil }
        let (times, angles) = blockMeans(
            times: interior.map(\.time), angles: geometry.angles(interior, fromAccelerometers: true))
        let count = Double(angles.count)
        let meanTime = times.reduce(0, +) / count
        // Moments of the centred times and of the angles: with them the line and the parabola.
        var t2 = 0.0, t3 = 0.0, t4 = 0.0, y = 0.0, ty = 0.0, t2y = 0.0
        for (time, angle) in zip(times, angles) {
            let t = time - meanTime
            let tt = t * t
            t2 += tt
            t3 += tt * t
            t4 += tt * tt
            y += angle
            ty += t * angle
            t2y += tt * angle
        }
        let meanAngle = y / count
        let slope = ty / t2
        var lineSquares = 0.0
        for (time, angle) in zip(times, angles) {
            let residual = angle - meanAngle - slope * (time - meanTime)
            lineSquares += residual * residual
        }
        let lineError = (lineSquares / (count - 2) / t2).squareRoot()
        var largest: Double? = abs(slope) >= 4 * lineError ? slope : nil

        let normal = Matrix3(rows: Vector3(count, 0, t2), Vector3(0, t2, t3), Vector3(t2, t3, t4))
        guard let covariance = normal.inverse else { return largest }
        let fit = covariance * Vector3(y, ty, t2y)
        var parabolaSquares = 0.0
        for (time, angle) in zip(times, angles) {
            let t = time - meanTime
            let residual = angle - fit.x - fit.y * t - fit.z * t * t
            parabolaSquares += residual * residual
        }
        let variance = parabolaSquares / (count - 3)
        // Without a curvature clear of the noise the line says all there is to say.
        guard abs(fit.z) >= 4 * (variance * covariance.row2.z).squareRoot() else { return largest }
        for t in [max(start - meanTime, -Self.parabolaReach), min(end - meanTime, Self.parabolaReach)] {
            // d/dt (a + b t + c t²) = b + 2 c t, with variance gᵀ Σ g for g = (0, 1, 2t).
            let gradient = Vector3(0, 1, 2 * t)
            let rate = fit.y + 2 * fit.z * t
            let error = (variance * gradient.dot(covariance * gradient)).squareRoot()
            if abs(rate) >= 4 * error, abs(rate) > abs(largest ?? 0) { largest = rate }
        }
        return largest
    }

    /// The samples' times and angles averaged over blocks of ``noiseBlockSeconds``, the last block
    /// holding what is left. The sensor's digital low-pass (44 Hz at 200 Hz) leaves each sample's
    /// noise correlated with its neighbours' (by about 0.5 at 5 ms), so a fit's standard error taken
    /// from its residuals as if they were independent is too small, and a still leg's noise passed
    /// four of them in 11 of 400 simulated sessions with short start rests. Block means longer than
    /// that correlation are about independent, and a turn far slower than the blocks loses nothing.
    static func blockMeans(times: [Double], angles: [Double]) -> (times: [Double], angles: [Double]) {
        guard let first = times.first, let last = times.last, times.count > 1 else { return (times, angles) }
        let interval = (last - first) / Double(times.count - 1)
        let size = max(1, Int((noiseBlockSeconds / interval).rounded()))
        var blockTimes: [Double] = [], blockAngles: [Double] = []
        blockTimes.reserveCapacity(times.count / size + 1)
        blockAngles.reserveCapacity(times.count / size + 1)
        for start in stride(from: 0, to: times.count, by: size) {
            let end = min(start + size, times.count)
            var time = 0.0, angle = 0.0
            for index in start..<end {
                time += times[index]
                angle += angles[index]
            }
            blockTimes.append(time / Double(end - start))
            blockAngles.append(angle / Double(end - start))
        }
        return (blockTimes, blockAngles)
    }

    /// Seconds of samples averaged into one point of the rest's fits: four samples at 200 Hz, four
    /// times the correlation time of the sensor's 44 Hz low-pass.
    static let noiseBlockSeconds = 0.02

    /// One sensor's estimated accelerometer errors and each still phase's tilt (degrees), from its
    /// averaged accelerometer and its gyro's turn about the hinge integrated from the first point;
    /// `withMovements`, also from every sample between two still phases.
    private static func accelerometerErrors(
        _ points: ArraySlice<TracePoint>, _ phases: [(run: Range<Int>, prefix: [Vector3])],
        _ sensor: EstimatedErrors.Sensor, _ rate: KeyPath<TracePoint, Vector3>, withMovements: Bool
    ) -> AccelerometerPoseErrors.Errors? {
        let mounting = sensor.mounting
        let turns = GyroTurns(points) { $0[keyPath: rate].dot(mounting.hingeAxis) }
        let base = points.startIndex
        var moving: [AccelerometerPoseErrors.MovingSample] = []
        for (after, (from, to)) in zip(phases, phases.dropFirst()).enumerated() where withMovements {
            let start = from.run.upperBound - 1
            for index in from.run.upperBound..<to.run.lowerBound where Self.isBesideNoGap(index, turns) {
                let point = points[base + index]
                let (hingeRate, angularAcceleration) = Self.hingeTurn(points, at: index) {
                    $0[keyPath: rate].dot(mounting.hingeAxis)
                }
                let gapsBefore = turns.gapsBefore[index] - turns.gapsBefore[start]
                let up = point.up(of: point.acceleration, isAfterGap: gapsBefore > 0)
                moving.append(
                    AccelerometerPoseErrors.MovingSample(
                        acceleration: point.acceleration, up: up, gyroAngle: turns.angles[index], time: point.time,
                        rate: hingeRate, angularAcceleration: angularAcceleration, after: after, gapsBefore: gapsBefore)
                )
            }
        }
        let poses = phases.indices.map { index in
            let (run, prefix) = phases[index]
            let count = Double(run.count)
            let previous = index == 0 ? run : phases[index - 1].run
            let gaps = index == 0 ? 0 : turns.gaps(in: previous.upperBound...run.lowerBound).count
            return AccelerometerPoseErrors.Pose(
                acceleration: prefix[run.count] * (1 / count),
                gyroAngle: turns.angles[run].reduce(0, +) / count,
                time: (points[base + run.lowerBound].time + points[base + run.upperBound - 1].time) / 2,
                gaps: gaps,
                hasGapsWithin: turns.gapsBefore[run.upperBound - 1] - turns.gapsBefore[previous.lowerBound] > gaps)
        }
        // The lever arm's lean is linear only near a guess of the position: nil, then the first fit's.
        guard
            let first = AccelerometerPoseErrors.estimate(
                poses, mounting: mounting, spreads: sensor.spreads, moving: moving, samplePeriod: turns.period)
        else { return nil }
        guard !moving.isEmpty else { return first }
        return AccelerometerPoseErrors.estimate(
            poses, mounting: mounting, spreads: sensor.spreads, moving: moving, samplePeriod: turns.period,
            leverArm: first.leverArm)
    }

    /// The index ranges (relative to the slice's start) where the leg did not turn for at least
    /// `minimumSeconds`: by default by the gyros' rates, or by what `isStill` says of each point.
    static func stillRuns(
        _ points: ArraySlice<TracePoint>, minimumSeconds: Double,
        isStill: (TracePoint) -> Bool = { !$0.isEitherTurning }
    ) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        let base = points.startIndex
        func close(_ end: Int) {
            guard let first = start else { return }
            if points[base + end - 1].time - points[base + first].time >= minimumSeconds { runs.append(first..<end) }
            start = nil
        }
        for (offset, point) in points.enumerated() {
            if !isStill(point) { close(offset) } else if start == nil { start = offset }
        }
        close(points.count)
        return runs
    }
}
