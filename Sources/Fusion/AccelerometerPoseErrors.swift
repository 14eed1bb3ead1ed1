/// How far an uncalibrated accelerometer's errors tilt its sagittal inclination at each still pose
/// of one session, estimated from the session itself.
///
/// Uncalibrated, an MPU-6050's offsets (tens of mg) and its scale and cross-axis errors (a percent or
/// two) tilt the accelerometer's inclination by up to a few degrees, differently in each pose. The
/// gyro's turn between two poses is off by its own gain about the hinge: its scale error and the
/// sensor's clock error, a percent or two of the turn. Which of the two is the better difference
/// between two poses depends on the part, so neither is taken alone. Both are linear in a few
/// unknowns whose spreads are known, and everything the session measured constrains them:
/// - at every pose, |a| − 1 g is the errors' component along gravity;
/// - between two poses, the accelerometer's turn minus the gyro's is the difference of the two poses'
///   tilt errors, minus the gyro's gain error times the turn.
///
/// - between two poses, every sample of the movement does too, once the lever arm's accelerations
///   (``LeverArm``) are taken out: its angle through the tilt its own pose gives it, and its |a|
///   through the errors along its gravity. The poses a movement passes through tie the errors'
///   pattern over the angle, and so the gain, far better than its two ends alone.
///
/// The estimate is the posterior mean of the unknowns (offsets, the 3×3 scale and cross-axis matrix,
/// the gyro's gain about the hinge, the sensor's lever arm and each movement's residual gyro bias)
/// under Gaussian priors of the uncalibrated part's spreads, and each pose's tilt error follows
/// from it. The posterior weighs the gyro and the accelerometer by
/// what each is known to be worth, pose by pose: a pose turned far from the others leans on the
/// accelerometer as much as its offsets allow, a pose near the others on the gyro.
enum AccelerometerPoseErrors {
    /// One still pose: the accelerometer averaged over it and the gyro's integrated turn about the
    /// hinge averaged over the same samples.
    struct Pose {
        /// Mean accelerometer, g.
        var acceleration: Vector3
        /// Mean of the gyro's turn about the hinge since the first sample, degrees.
        var gyroAngle: Double
        /// Middle of the pose, seconds.
        var time: Double
        /// The gaps (lost samples) in the movement from the previous pose. Across each the gyro's
        /// turn is the trapezoid's guess, tens of degrees off at a fast movement's peak, and its
        /// miss is an unknown step of its own (``LostTurns/stepSigma``): the movement's samples on
        /// either side of the gap still show the errors, its two ends alone no longer do.
        var gaps = 0
        /// Whether this pose or the previous lost samples within itself: its mean gyro turn then
        /// holds the trapezoid's guess of whatever the leg turned in the gap, and the two poses'
        /// turn is left to the movement's samples.
        var hasGapsWithin = false
    }

    /// How far an accelerometer's errors may be, before the session shows them.
    struct Spreads: Sendable {
        /// Of each offset component, g.
        var offset: Double
        /// Of each axis's scale error.
        var scale: Double
        /// Of each cross-axis term (and misalignment).
        var crossAxis: Double

        /// An uncalibrated part: a typical part's 5–30 mg on each axis (an RMS of 19 mg), well
        /// inside the datasheet's ±50 mg (x, y) and ±80 mg (z); ±1.5 % scale (half the datasheet's
        /// ±3 %), a standard deviation of 0.9 %; ±1 % cross-axis, half the datasheet's ±2 %.
        static let uncalibrated = Spreads(offset: 0.02, scale: 0.009, crossAxis: 0.006)
        /// What a calibration leaves: the offsets drift by about 0.5 mg/°C (the datasheet's ±35 mg
        /// over 0…70 °C), so a session 5–10 °C warmer than the calibration carries a few mg; the
        /// guided fit's matrix is good to a few tenths of a percent.
        static let calibrated = Spreads(offset: 0.003, scale: 0.002, crossAxis: 0.002)
    }

    /// Spread of the gyro's gain about the hinge: its scale error (±1.5 % typical, 0.9 %) and the
    /// sensor's sample clock (±1 %, 0.6 %) together.
    static let gyroGainSigma = 0.010
    /// Noise of |a| − 1 g at a still pose, g: the offsets' drift with a few degrees of warming
    /// (0.35 mg/°C), second-order terms of the errors (0.5 mg at 30 mg), a leg not perfectly still.
    static let magnitudeSigma = 0.002
    /// Noise of one pose's averaged accelerometer inclination, degrees: the sensor's noise averaged
    /// over a still phase is 0.03°; a leg at rest moves it by a few hundredths more.
    static let inclinationSigma = 0.05
    /// Noise of one moving sample's |a|, g: the MPU-6050's noise at the 44 Hz low-pass. A leg in
    /// motion shakes it more than a still one, but the lever arm's share (``LeverArm``) covers that.
    static let movingMagnitudeSigma = 0.0035
    /// The gyro's residual bias after the rest's estimate, °/s: its turn between two poses drifts by
    /// this times the seconds between them.
    static let biasSigma = 0.05

    /// The number of the part's own unknowns: three offsets, nine matrix terms, the gyro's gain.
    private static let errorCount = 13

    /// A sample of the movement from one pose to the next.
    struct MovingSample {
        /// The accelerometer, g.
        var acceleration: Vector3
        /// The filter's gravity direction: near enough the true one for the errors' coefficients.
        var up: Vector3
        /// The gyro's turn about the hinge since the first sample, degrees, as the poses'.
        var gyroAngle: Double
        var time: Double
        /// The turn about the hinge, rad/s, and its rate of change, rad/s².
        var rate: Double
        var angularAcceleration: Double
        /// The pose the movement left, an index into the poses: it ends at the next.
        var after: Int
        /// How many of the movement's gaps lie before the sample.
        var gapsBefore = 0
    }

    /// The estimated errors: their posterior mean, each pose's tilt, the sensor's lever arm.
    struct Errors {
        /// The whitened unknowns (see ``estimate(_:mounting:moving:samplePeriod:leverArm:)``).
        fileprivate var unknowns: [Double]
        /// Each pose's tilt error in degrees (the accelerometer's inclination minus the true one),
        /// in the poses' order.
        var tilts: [Double]
        /// The sensor's position from the knee's axis along the shin and forward axes, metres.
        var leverArm: (shin: Double, forward: Double)
        fileprivate var spreads: Spreads

        /// The tilt error (degrees) of `acceleration` read with the true gravity direction near
        /// `up`; `nil` when it has no inclination (see ``isPlaceable(_:mounting:)``).
        func tilt(of acceleration: Vector3, up: Vector3, mounting: Mounting) -> Double? {
            guard let gradient = AccelerometerPoseErrors.gradient(acceleration, mounting) else { return nil }
            return zip(AccelerometerPoseErrors.row(gradient, up, spreads), unknowns).reduce(0) { $0 + $1.0 * $1.1 }
                * 180
                / Double.pi
        }
    }

    /// Whether a pose's accelerometer has an inclination to correct: not a zero average (a free
    /// fall's), not along the hinge.
    static func isPlaceable(_ acceleration: Vector3, mounting: Mounting) -> Bool {
        sagittal(acceleration, mounting) != nil
    }

    /// The inclination's gradient with respect to the acceleration, radians per g; `nil` when it
    /// has none in the sagittal plane.
    private static func gradient(_ acceleration: Vector3, _ mounting: Mounting) -> Vector3? {
        guard let (_, along, forward) = sagittal(acceleration, mounting) else { return nil }
        return (mounting.forwardAxis * along - mounting.shinAxis * forward)
            * (1 / ((along * along + forward * forward) * acceleration.length))
    }

    /// The direction of the acceleration and its components along the shin and forward axes; `nil`
    /// when it has none in the sagittal plane.
    private static func sagittal(
        _ acceleration: Vector3, _ mounting: Mounting
    ) -> (up: Vector3, along: Double, forward: Double)? {
        guard let up = acceleration.normalized else { return nil }
        let along = up.dot(mounting.shinAxis), forward = up.dot(mounting.forwardAxis)
        return along * along + forward * forward > 1e-6 ? (up, along, forward) : nil
    }

    /// The errors and each pose's tilt; `nil` when a pose is not ``isPlaceable(_:mounting:)``.
    ///
    /// - Parameters:
    ///   - moving: the samples of the movements between poses, none beside a gap.
    ///   - samplePeriod: seconds between the moving samples, for ``LeverArm/correlationSeconds``.
    ///   - leverArm: the guess of the sensor's position about which the lever arm's lean is taken
    ///     as linear: nil, then the first estimate's.
    static func estimate(
        _ poses: [Pose], mounting: Mounting, spreads: Spreads, moving: [MovingSample] = [],
        samplePeriod: Double = 0, leverArm: (shin: Double, forward: Double) = (0, 0)
    ) -> Errors? {
        let degrees = 180 / Double.pi
        // Whitened unknowns u ~ N(0, I): offset = σo·u[0..<3], matrix term (j, k) = σjk·u[3 + 3j + k],
        // gyro gain = σk·u[12], the lever arm = σp·u[13, 14], the residual bias of the movement
        // after pose i = σb·u[15 + i], then each gap's step, σs·u, movement by movement. Rows below
        // are the observations' coefficients on u.
        let biasCount = max(poses.count - 1, 0)
        let firstSteps = poses.reduce(into: [errorCount + 2 + biasCount]) { $0.append($0[$0.count - 1] + $1.gaps) }
        let unknownCount = firstSteps[firstSteps.count - 1]
        let gain = errorCount - 1, lever = errorCount
        func bias(after pose: Int) -> Int { lever + 2 + pose }
        // The steps of the first `count` gaps of the movement that ends at pose `pose`.
        func addSteps(_ row: inout [Double], movementTo pose: Int, count: Int) {
            for step in firstSteps[pose]..<(firstSteps[pose] + count) {
                row[step] = LostTurns.stepSigma / degrees
            }
        }
        var tilts: [[Double]] = []
        var inclinations: [Double] = []
        var precision = (0..<unknownCount).map { row in
            (0..<unknownCount).map { $0 == row ? 1.0 : 0 }
        }
        var information = [Double](repeating: 0, count: unknownCount)
        func observe(_ row: [Double], _ value: Double, sigma: Double) {
            let weight = 1 / (sigma * sigma)
            for i in 0..<unknownCount where row[i] != 0 {
                information[i] += row[i] * value * weight
                for j in 0..<unknownCount { precision[i][j] += row[i] * row[j] * weight }
            }
        }
        func tiltRow(_ gradient: Vector3, _ up: Vector3) -> [Double] {
            Self.row(gradient, up, spreads) + [Double](repeating: 0, count: unknownCount - errorCount)
        }
        for pose in poses {
            let magnitude = pose.acceleration.length
            guard let gradient = Self.gradient(pose.acceleration, mounting), let up = pose.acceleration.normalized
            else { return nil }
            tilts.append(tiltRow(gradient, up))
            inclinations.append(mounting.sagittalAngle(gravity: pose.acceleration))
            observe(tiltRow(up, up), magnitude - 1, sigma: magnitudeSigma)
        }
        for i in poses.indices.dropFirst() where !poses[i].hasGapsWithin {
            let gyroTurn = (poses[i].gyroAngle - poses[i - 1].gyroAngle) / degrees
            let accelerometerTurn = AngleUnwrapper.halfTurn(inclinations[i] - inclinations[i - 1]) / degrees
            var row = zip(tilts[i], tilts[i - 1]).map { $0 - $1 }
            row[gain] = -gyroGainSigma * gyroTurn
            row[bias(after: i - 1)] = biasSigma * (poses[i].time - poses[i - 1].time) / degrees
            addSteps(&row, movementTo: i, count: poses[i].gaps)
            observe(row, accelerometerTurn - gyroTurn, sigma: 2.0.squareRoot() * inclinationSigma / degrees)
        }
        // A moving sample, less the lever arm's acceleration at the guess, reads the true angle
        // plus the tilt of its pose plus the lean of what the guess missed.
        let correlation = LeverArm.correlatedSamples(period: samplePeriod)
        for sample in moving where sample.after + 1 < poses.count {
            let from = sample.after
            let gravity =
                sample.acceleration
                - LeverArm.acceleration(
                    shin: leverArm.shin, forward: leverArm.forward, rate: sample.rate,
                    angularAcceleration: sample.angularAcceleration, mounting: mounting)
            guard let gradient = Self.gradient(gravity, mounting),
                let lean = LeverArm.lean(
                    at: gravity, rate: sample.rate, angularAcceleration: sample.angularAcceleration, mounting: mounting)
            else { continue }
            let gyroTurn = (sample.gyroAngle - poses[from].gyroAngle) / degrees
            let leanAtGuess = lean.shin * leverArm.shin + lean.forward * leverArm.forward
            let accelerometerTurn =
                (AngleUnwrapper.halfTurn(mounting.sagittalAngle(gravity: gravity) - inclinations[from]) + leanAtGuess)
                / degrees
            var row = zip(tiltRow(gradient, sample.up), tilts[from]).map { $0 - $1 }
            row[gain] = -gyroGainSigma * gyroTurn
            row[lever] = LeverArm.positionSigma * lean.shin / degrees
            row[lever + 1] = LeverArm.positionSigma * lean.forward / degrees
            row[bias(after: from)] = biasSigma * (sample.time - poses[from].time) / degrees
            addSteps(&row, movementTo: from + 1, count: sample.gapsBefore)
            observe(row, accelerometerTurn - gyroTurn, sigma: (lean.variance * correlation).squareRoot() / degrees)
            // And |a| less the lever arm's acceleration is 1 g plus the errors along gravity, as at
            // a still pose: with the accelerometer turned through the movement, this separates the
            // scale and cross-axis terms whose tilts would pass for the gyro's gain.
            guard let direction = gravity.normalized else { continue }
            func along(_ shin: Double, _ forward: Double) -> Double {
                LeverArm.acceleration(
                    shin: shin, forward: forward, rate: sample.rate, angularAcceleration: sample.angularAcceleration,
                    mounting: mounting
                ).dot(direction)
            }
            var magnitudeRow = tiltRow(direction, direction)
            magnitudeRow[lever] = LeverArm.positionSigma * along(1, 0)
            magnitudeRow[lever + 1] = LeverArm.positionSigma * along(0, 1)
            let model = LeverArm.modelShare * LeverArm.typicalDistance * Vector3(along(1, 0), along(0, 1), 0).length
            observe(
                magnitudeRow, gravity.length - 1 + along(leverArm.shin, leverArm.forward),
                sigma: ((movingMagnitudeSigma * movingMagnitudeSigma + model * model) * correlation).squareRoot())
        }
        guard let unknowns = solve(precision, information) else { return nil }
        return Errors(
            unknowns: unknowns,
            tilts: tilts.map { row in zip(row, unknowns).reduce(0) { $0 + $1.0 * $1.1 } * degrees },
            leverArm: (unknowns[lever] * LeverArm.positionSigma, unknowns[lever + 1] * LeverArm.positionSigma),
            spreads: spreads)
    }

    /// The coefficients on the whitened unknowns of `probe · (error at the true direction up)`:
    /// the error is offset + M·up, so probe·offset + Σ probe_j M_jk up_k.
    private static func row(_ probe: Vector3, _ up: Vector3, _ spreads: Spreads) -> [Double] {
        var row = [Double](repeating: 0, count: errorCount)
        for j in 0..<3 {
            row[j] = spreads.offset * probe[j]
            for k in 0..<3 {
                row[3 + 3 * j + k] = (j == k ? spreads.scale : spreads.crossAxis) * probe[j] * up[k]
            }
        }
        return row
    }
}
