extension Calibration {
    /// The gyro's full correction matrix and the accelerometer's cross-axis terms, from the turns
    /// between still poses.
    ///
    /// Between two still poses the accelerometer gives the gravity direction before and after;
    /// integrating the corrected gyro over the turn predicts the one from the other. A Gauss–Newton
    /// least-squares fit over all turns finds the nine elements of the gyro matrix (sensitivities,
    /// cross-axis terms, the misalignment to the accelerometer, and the sample clock's error) and
    /// the three symmetric cross-axis terms of the accelerometer, which its still poses on the six
    /// faces cannot show (they only fix offset and sensitivity) but which change the angle between
    /// two faces that the gyro measures.
    ///
    /// A turn cannot show a rotation about the vertical, so each axis must be turned about twice,
    /// from faces at right angles: for example face up, tip about x onto +y up, on about x to
    /// −z up, about y to +x up, about z to −y up, about z to −x up, and about y back to −z up.
    ///
    /// - Parameters:
    ///   - samples: raw samples alternating still poses and turns, in time order.
    ///   - gyroBias: the still poses' mean, to tell the turns from the poses; each turn is
    ///     integrated with the bias of its own two poses.
    ///   - accelerometerOffset: from the still poses.
    ///   - accelerometerDiagonal: the accelerometer's sensitivity corrections from the still poses.
    /// - Returns: the gyro matrix (raw rate, bias removed → rate in the accelerometer's frame) and
    ///   the accelerometer matrix (the diagonal with the fitted cross-axis terms).
    /// - Throws: ``CalibrationError/tooLittleRotation(degrees:)`` when no two consecutive still
    ///   poses are found; ``CalibrationError/turnsNotSpread(axis:)`` when the turns do not go about
    ///   an axis from two faces at right angles; ``CalibrationError/implausibleFit(_:)`` when the fit
    ///   is outside the datasheet tolerances or does not explain the turns to within 1°.
    public static func sensitivities(
        turnsIn samples: [InertialSample], gyroBias: Vector3, accelerometerOffset: Vector3,
        accelerometerDiagonal: Vector3, parameters: FusionParameters = FusionParameters()
    ) throws(CalibrationError) -> (gyro: Matrix3, accelerometer: Matrix3) {
        let provisional = Calibration(
            gyroBias: gyroBias, accelerometerOffset: accelerometerOffset,
            accelerometerMatrix: Matrix3(diagonal: accelerometerDiagonal))
        let allTurns = Self.turns(in: samples.map(provisional.corrected), parameters: parameters)
        // Across lost samples the integral is a guess, which the fit would take for the matrix.
        let turns = allTurns.filter(\.isComplete)
        let lost = allTurns.count - turns.count
        // A fit left short by the turns that lost samples says so, rather than what it lacks.
        func short(_ lacking: CalibrationError) -> CalibrationError { lost > 0 ? .samplesLost(turns: lost) : lacking }
        guard !turns.isEmpty else { throw short(.tooLittleRotation(degrees: 0)) }
        let model = SensitivityModel(
            samples: samples, turns: turns, accelerometerOffset: accelerometerOffset,
            accelerometerDiagonal: accelerometerDiagonal)
        var estimate = SensitivityModel.start
        for _ in 0..<6 {
            let (normal, rhs) = model.normalEquations(at: estimate)
            guard let delta = solve(normal, rhs) else {
                throw short(
                    .turnsNotSpread(
                        axis: SensitivityModel.leastObservedAxis(normal.indices.map { 1 / normal[$0][$0] })))
            }
            for i in estimate.indices { estimate[i] += delta[i] }
            if delta.map(abs).max() ?? 0 < 1e-7 { break }
        }
        // Each element must be pinned down by the turns: the variance of a parameter, in units of
        // the turns' residual variance, is its diagonal element of the inverse normal matrix. With
        // each axis turned about twice it is at most about 0.6 (sensitivities 0.2, cross-axis terms
        // 0.6, the accelerometer's 0.13); with an axis turned about once, one combination of its
        // column is hidden by the vertical and the variance exceeds 100. Hidden entirely, it would
        // leave the matrix singular and every variance unknown: a ridge far below any element of a
        // fit that holds keeps the hidden ones finite and huge, so the refusal can name the axis.
        var (normal, _) = model.normalEquations(at: estimate)
        let ridge = 1e-9 * (normal.indices.map { normal[$0][$0] }.max() ?? 0)
        for index in normal.indices { normal[index][index] += ridge }
        let variances = estimate.indices.map { index -> Double in
            var unit = [Double](repeating: 0, count: estimate.count)
            unit[index] = 1
            return solve(normal, unit)?[index] ?? .infinity
        }
        if variances.contains(where: { !($0 < SensitivityModel.largestVariance) }) {
            throw short(.turnsNotSpread(axis: SensitivityModel.leastObservedAxis(variances)))
        }
        let (gyro, accelerometer) = model.matrices(estimate)
        let fitted = Calibration(gyroMatrix: gyro, accelerometerMatrix: accelerometer)
        if let problem = fitted.problems.first { throw .implausibleFit(problem) }
        let worst = model.residuals(estimate).map(\.length).max() ?? 0
        guard worst * 180 / Double.pi <= 1 else {
            throw .implausibleFit("a turn is off by \(worst * 180 / Double.pi)° after the fit; was each pose still?")
        }
        return (gyro, accelerometer)
    }

    /// Seconds a still run must last to count as a pose: after a turn the rest detector's reference
    /// takes about two of its time constants (~1 s) to settle, so a pose held 2 s yields ~1 s.
    static let minimumPoseSeconds = 1.0

    /// A turn between two still poses: integrate from `from` to `to` (sample indices, inclusive).
    struct Turn {
        var from: Int
        var to: Int
        /// The still runs before and after.
        var before: ClosedRange<Int>
        var after: ClosedRange<Int>
        /// Whether the turn has all its samples.
        var isComplete = true
    }

    /// Whether samples lost between two consecutive (bias-corrected) samples of a sensor sampling
    /// every `period` seconds lose part of a turn. A gap does unless the device lay still on both
    /// sides of it, turning slower than the rest detector's threshold and reading the same gravity:
    /// a tip made within the gap changes it by a whole g.
    static func losesTurn(
        from before: InertialSample, to after: InertialSample, period: Double, parameters: FusionParameters
    ) -> Bool {
        GyroIntegration.isGap(interval: after.time - before.time, period: period)
            && !(before.rotationRate.length < parameters.restGyroThreshold
                && after.rotationRate.length < parameters.restGyroThreshold
                && (after.acceleration - before.acceleration).length < parameters.restAccelerationThreshold)
    }

    /// The turns between consecutive still poses of (bias-corrected) samples.
    static func turns<Samples: RandomAccessCollection<InertialSample>>(
        in samples: Samples, parameters: FusionParameters
    ) -> [Turn] where Samples.Index == Int {
        let runs = stillRuns(in: samples, parameters: parameters)
        let period = GyroIntegration.period(ofTimes: samples.map(\.time))
        func losesTurn(at index: Int) -> Bool {
            Self.losesTurn(from: samples[index - 1], to: samples[index], period: period, parameters: parameters)
        }
        // From the middle of the first pose to the middle of the second: each pose's mean stands
        // for the gravity direction there, and the still halves add only noise to the integral.
        return zip(runs, runs.dropFirst()).map { a, b in
            let from = (a.lowerBound + a.upperBound) / 2, to = (b.lowerBound + b.upperBound) / 2
            return Turn(
                from: from, to: to, before: a, after: b, isComplete: !(from + 1...to).contains { losesTurn(at: $0) })
        }
    }

    /// The part of a still run that was still: the rest detector compares with a low-passed
    /// reference, so it reads the first instants of a smooth turn (up to its 2 °/s threshold) as
    /// still, and a run followed by a turn loses its last quarter second.
    static func stillPart<Samples: RandomAccessCollection<InertialSample>>(
        of run: ClosedRange<Int>, in samples: Samples
    ) -> ClosedRange<Int> where Samples.Index == Int {
        var upper = run.upperBound
        if run.upperBound < samples.endIndex - 1 {
            let cut = samples[run.upperBound].time - 0.25
            while upper > run.lowerBound, samples[upper].time > cut { upper -= 1 }
        }
        return run.lowerBound...upper
    }

    /// The index ranges where the rest detector saw the samples still for at least
    /// ``minimumPoseSeconds``.
    static func stillRuns<Samples: RandomAccessCollection<InertialSample>>(
        in samples: Samples, parameters: FusionParameters
    ) -> [ClosedRange<Int>] where Samples.Index == Int {
        var runs: [ClosedRange<Int>] = []
        var detector = RestDetector(parameters: parameters)
        var runStart: Int?
        var previousTime: Double?
        for index in samples.indices {
            let sample = samples[index]
            detector.update(
                rotationRate: sample.rotationRate, acceleration: sample.acceleration,
                interval: previousTime.map { sample.time - $0 } ?? 0)
            previousTime = sample.time
            if detector.isStill {
                if runStart == nil { runStart = index }
            } else if let start = runStart {
                if index - 1 >= start { runs.append(start...(index - 1)) }
                runStart = nil
            }
        }
        if let start = runStart, let last = samples.indices.last { runs.append(start...last) }
        return runs.filter { samples[$0.upperBound].time - samples[$0.lowerBound].time >= minimumPoseSeconds }
    }
}

/// The least-squares problem of ``Calibration/sensitivities(turnsIn:gyroBias:accelerometerOffset:accelerometerDiagonal:parameters:)``.
/// Parameters: the gyro matrix's nine elements row by row, then the accelerometer's cross-axis
/// terms xy, xz, yz.
private struct SensitivityModel {
    let samples: [InertialSample]
    let turns: [Calibration.Turn]
    let accelerometerOffset: Vector3
    let accelerometerDiagonal: Vector3
    /// The raw mean accelerometer (offset removed) of each turn's poses.
    let poses: [(before: Vector3, after: Vector3)]
    /// The gyro's mean over each turn's poses, and where each pose's still part ends and begins.
    /// At rest a gyro reads its bias, and the bias depends on the pose: the MPU-6050's rate output
    /// moves by about 0.1 °/s per g of acceleration, so from face to face by up to a few tenths of
    /// °/s. One bias for every face, integrated over half of each held pose, leaves tenths of a
    /// degree in a 90° tip, which the fit would take for the matrix; so each turn is integrated
    /// with the bias its own poses read, passing from the one to the other during the tip.
    /// `tips`: when the first pose's still part ends and the second's begins, seconds.
    let poseBiases: [(before: Vector3, after: Vector3)]
    let tips: [(start: Double, end: Double)]

    /// See the check in the fit.
    static let largestVariance = 2.0
    static let start: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]

    init(
        samples: [InertialSample], turns: [Calibration.Turn], accelerometerOffset: Vector3,
        accelerometerDiagonal: Vector3
    ) {
        self.samples = samples
        self.turns = turns
        self.accelerometerOffset = accelerometerOffset
        self.accelerometerDiagonal = accelerometerDiagonal
        func mean(_ run: ClosedRange<Int>) -> Vector3 {
            var sum = Vector3.zero
            for index in run { sum += samples[index].acceleration }
            return sum / Double(run.count) - accelerometerOffset
        }
        poses = turns.map { (mean($0.before), mean($0.after)) }
        func bias(_ run: ClosedRange<Int>) -> Vector3 {
            let still = Calibration.stillPart(of: run, in: samples)
            var sum = Vector3.zero
            for index in still { sum += samples[index].rotationRate }
            return sum / Double(still.count)
        }
        poseBiases = turns.map { (bias($0.before), bias($0.after)) }
        tips = turns.map {
            (
                samples[Calibration.stillPart(of: $0.before, in: samples).upperBound].time,
                samples[$0.after.lowerBound].time
            )
        }
    }

    /// The gyro's bias at `index` within `turn`: its poses' before and after the tip, and in
    /// between, as the pose passes from the one to the other: in proportion to how far the
    /// accelerometer has turned from the first pose towards the second.
    private func bias(at index: Int, turn: Int) -> Vector3 {
        let (before, after) = poseBiases[turn], (start, end) = tips[turn]
        let time = samples[index].time
        guard end > start, time > start else { return before }
        guard time < end else { return after }
        let a = samples[index].acceleration - accelerometerOffset
        let from = a.angle(to: poses[turn].before), to = a.angle(to: poses[turn].after)
        guard from + to > 0 else { return before }
        return before + (after - before) * (from / (from + to))
    }

    func matrices(_ p: [Double]) -> (gyro: Matrix3, accelerometer: Matrix3) {
        let d = accelerometerDiagonal
        return (
            Matrix3(rows: Vector3(p[0], p[1], p[2]), Vector3(p[3], p[4], p[5]), Vector3(p[6], p[7], p[8])),
            Matrix3(rows: Vector3(d.x, p[9], p[10]), Vector3(p[9], d.y, p[11]), Vector3(p[10], p[11], d.z))
        )
    }

    /// Predicted minus measured gravity direction at the end of each turn.
    func residuals(_ p: [Double]) -> [Vector3] {
        let (gyro, accelerometer) = matrices(p)
        return zip(turns.indices, poses).map { number, pose in
            let turn = turns[number]
            guard var gravity = (accelerometer * pose.before).normalized,
                let after = (accelerometer * pose.after).normalized
            else { return Vector3(1, 1, 1) }
            var previousRate = gyro * (samples[turn.from].rotationRate - bias(at: turn.from, turn: number))
            for index in (turn.from + 1)...turn.to {
                let rate = gyro * (samples[index].rotationRate - bias(at: index, turn: number))
                let interval = samples[index].time - samples[index - 1].time
                gravity = gravity.rotated(by: (previousRate + rate) * (-0.5 * interval * Double.pi / 180))
                previousRate = rate
            }
            return gravity - after
        }
    }

    /// JᵀJ and −Jᵀr at `p`, the Jacobian by central differences.
    func normalEquations(at p: [Double]) -> (normal: [[Double]], rhs: [Double]) {
        let n = p.count
        let residual = residuals(p).flatMap { [$0.x, $0.y, $0.z] }
        let step = 1e-5
        let columns = (0..<n).map { index -> [Double] in
            var up = p, down = p
            up[index] += step
            down[index] -= step
            let plus = residuals(up), minus = residuals(down)
            return zip(plus, minus).flatMap { a, b -> [Double] in
                let d = (a - b) / (2 * step)
                return [d.x, d.y, d.z]
            }
        }
        var normal = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        var rhs = [Double](repeating: 0, count: n)
        for i in 0..<n {
            rhs[i] = -zip(columns[i], residual).reduce(0) { $0 + $1.0 * $1.1 }
            for j in 0..<n { normal[i][j] = zip(columns[i], columns[j]).reduce(0) { $0 + $1.0 * $1.1 } }
        }
        return (normal, rhs)
    }

    /// The gyro axis whose column of the matrix the turns show least (the largest variance of its
    /// elements j, 3 + j and 6 + j), for the refusal.
    static func leastObservedAxis(_ variances: [Double]) -> String {
        let worst = (0..<3).map { (j: Int) -> Double in max(variances[j], variances[3 + j], variances[6 + j]) }
        let axis = worst.indices.max { worst[$0] < worst[$1] } ?? 0
        return ["x", "y", "z"][axis]
    }
}
