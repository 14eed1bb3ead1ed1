extension Calibration {
    /// Gyro sensitivity per axis (1 = nominal) from turns between still poses.
    ///
    /// The MPU-6050's gyro sensitivity is only specified to ±3 %, and the sample clock adds up to
    /// ±1 %: on a 90° extension that is up to 3.6° the accelerometer can correct only slowly. Between
    /// two still poses the accelerometer measures the true change of the gravity direction; integrating
    /// the gyro over the turn with trial sensitivities predicts it. A Gauss–Newton least-squares fit over
    /// all turns gives the sensitivities. Turns about each of the three axes are needed (a turn about the
    /// vertical is invisible to the accelerometer).
    ///
    /// - Parameters:
    ///   - recordings: bias- and accelerometer-corrected recordings, each alternating still poses (each
    ///     held at least 2 s, of which 1 s must read as still) and turns, e.g. the six-face procedure.
    ///   - parameters: the rest thresholds that find the still poses.
    /// - Returns: the sensitivity of each axis relative to nominal, so `corrected = rate / scale`.
    /// - Throws: ``CalibrationError/tooLittleRotation(degrees:)`` when no two consecutive still poses
    ///   are found; ``CalibrationError/posesNotSpread`` when the turns do not cover all three axes;
    ///   ``CalibrationError/implausibleFit(_:)`` when the fit is outside 0.9…1.1 or does not explain
    ///   the turns to within 1°.
    public static func gyroScale(
        recordings: [[InertialSample]], parameters: FusionParameters = FusionParameters()
    ) throws(CalibrationError) -> Vector3 {
        let turns = recordings.flatMap { samples in
            Self.turns(in: samples, parameters: parameters).map { (turn: $0, samples: samples) }
        }
        guard !turns.isEmpty else { throw .tooLittleRotation(degrees: 0) }
        var scale = Vector3(1, 1, 1)
        for _ in 0..<4 {
            // Residuals and their Jacobian (central differences) with respect to the three scales.
            var normal = [[Double]](repeating: [0, 0, 0], count: 3)
            var rhs = [0.0, 0, 0]
            let step = 1e-4
            for (turn, samples) in turns {
                let residual = turn.residual(scale: scale, samples: samples)
                let columns = (0..<3).map { axis -> Vector3 in
                    var up = scale, down = scale
                    up[axis] += step
                    down[axis] -= step
                    return (turn.residual(scale: up, samples: samples) - turn.residual(scale: down, samples: samples)) / (2 * step)
                }
                for i in 0..<3 {
                    rhs[i] -= columns[i].dot(residual)
                    for j in 0..<3 { normal[i][j] += columns[i].dot(columns[j]) }
                }
            }
            // Each axis must have turned enough to be observed: 30° of turn gives a diagonal of ~0.27.
            guard (0..<3).allSatisfy({ normal[$0][$0] > 0.05 }), let delta = solve(normal, rhs)
            else { throw .posesNotSpread }
            scale += Vector3(delta[0], delta[1], delta[2])
        }
        guard [scale.x, scale.y, scale.z].allSatisfy({ (0.9...1.1).contains($0) }) else {
            throw .implausibleFit("gyro sensitivity \(scale) is outside 0.9…1.1 (datasheet ±3 %)")
        }
        let worst = turns.map { $0.turn.residual(scale: scale, samples: $0.samples).length }.max() ?? 0
        guard worst * 180 / Double.pi <= 1 else {
            throw .implausibleFit("a turn is off by \(worst * 180 / Double.pi)° after the fit; was each pose still?")
        }
        return scale
    }

    /// Seconds a still run must last to count as a pose: after a turn the rest detector's reference
    /// takes about two of its time constants (~1 s) to settle, so a pose held 2 s yields ~1 s.
    static let minimumPoseSeconds = 1.0

    /// A turn between two still poses: integrate from `from` to `to` (sample indices, inclusive).
    struct Turn {
        var from: Int
        var to: Int
        var before: Vector3
        var after: Vector3

        /// Predicted minus measured gravity direction at the end of the turn.
        func residual<Samples: RandomAccessCollection<InertialSample>>(scale: Vector3, samples: Samples) -> Vector3
        where Samples.Index == Int {
            var gravity = before
            for index in (from + 1)...to {
                let previous = samples[index - 1], sample = samples[index]
                let meanRate = (previous.rotationRate.divided(by: scale) + sample.rotationRate.divided(by: scale)) * 0.5
                gravity = gravity.rotated(by: meanRate * (-(sample.time - previous.time) * Double.pi / 180))
            }
            return gravity - after
        }
    }

    /// The turns between consecutive still poses, each pose summarised by the mean accelerometer of
    /// its still samples.
    static func turns<Samples: RandomAccessCollection<InertialSample>>(
        in samples: Samples, parameters: FusionParameters
    ) -> [Turn] where Samples.Index == Int {
        let runs = stillRuns(in: samples, parameters: parameters)
        func pose(_ run: ClosedRange<Int>) -> Vector3? {
            var sum = Vector3.zero
            for index in run { sum += samples[index].acceleration }
            return sum.normalized
        }
        var turns: [Turn] = []
        for (a, b) in zip(runs, runs.dropFirst()) {
            guard let before = pose(a), let after = pose(b) else { continue }
            // From the middle of the first pose to the middle of the second: each pose's mean stands
            // for the gravity direction there, and the still halves add only noise to the integral.
            turns.append(Turn(from: (a.lowerBound + a.upperBound) / 2, to: (b.lowerBound + b.upperBound) / 2,
                              before: before, after: after))
        }
        return turns
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
            detector.update(rotationRate: sample.rotationRate, acceleration: sample.acceleration,
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

extension Vector3 {
    /// The component for axis 0 (x), 1 (y) or 2 (z).
    subscript(axis: Int) -> Double {
        get { axis == 0 ? x : (axis == 1 ? y : z) }
        set {
            switch axis {
            case 0: x = newValue
            case 1: y = newValue
            default: z = newValue
            }
        }
    }
}
