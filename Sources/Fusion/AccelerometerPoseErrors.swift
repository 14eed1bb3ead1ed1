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
/// The estimate is the posterior mean of the unknowns (offsets, the 3×3 scale and cross-axis matrix,
/// the gyro's gain about the hinge) under Gaussian priors of the uncalibrated part's spreads, and
/// each pose's tilt error follows from it. The posterior weighs the gyro and the accelerometer by
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
        /// Whether the gyro's turn from the previous pose has all its samples. Across lost samples
        /// during a movement the turn is interpolated, several degrees off at a fast one's peak, so
        /// it says nothing of the errors and only the accelerometer places the two poses.
        var isTurnComplete = true
    }

    /// Spread of each accelerometer offset component, g: a typical part's 5–30 mg on each axis (an RMS
    /// of 19 mg), well inside the datasheet's ±50 mg (x, y) and ±80 mg (z) for a fresh part.
    static let offsetSigma = 0.02
    /// Spread of the accelerometer's scale error on each axis: ±1.5 % on a typical part (half the
    /// datasheet's ±3 % tolerance), a standard deviation of 0.9 %.
    static let scaleSigma = 0.009
    /// Spread of each cross-axis term (and misalignment) of the accelerometer: ±1 % typical, half the
    /// datasheet's ±2 %.
    static let crossAxisSigma = 0.006
    /// Spread of the gyro's gain about the hinge: its scale error (±1.5 % typical, 0.9 %) and the
    /// sensor's sample clock (±1 %, 0.6 %) together.
    static let gyroGainSigma = 0.010
    /// Noise of |a| − 1 g at a still pose, g: the offsets' drift with a few degrees of warming
    /// (0.35 mg/°C), second-order terms of the errors (0.5 mg at 30 mg), a leg not perfectly still.
    static let magnitudeSigma = 0.002
    /// Noise of one pose's averaged accelerometer inclination, degrees: the sensor's noise averaged
    /// over a still phase is 0.03°; a leg at rest moves it by a few hundredths more.
    static let inclinationSigma = 0.05
    /// The gyro's residual bias after the rest's estimate, °/s: its turn between two poses drifts by
    /// this times the seconds between them.
    static let biasSigma = 0.05

    /// The number of unknowns: three offsets, nine matrix terms, the gyro's gain.
    private static let unknownCount = 13

    /// Whether a pose's accelerometer has an inclination to correct: not a zero average (a free
    /// fall's), not along the hinge.
    static func isPlaceable(_ acceleration: Vector3, mounting: Mounting) -> Bool {
        sagittal(acceleration, mounting) != nil
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

    /// Each pose's tilt error in degrees (the accelerometer's inclination minus the true one), in
    /// the poses' order; `nil` when a pose is not ``isPlaceable(_:mounting:)``.
    static func estimate(_ poses: [Pose], mounting: Mounting) -> [Double]? {
        let degrees = 180 / Double.pi
        // Whitened unknowns u ~ N(0, I): offset = σo·u[0..<3], matrix term (j, k) = σjk·u[3 + 3j + k],
        // gyro gain = σk·u[12]. Rows below are the observations' coefficients on u.
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
        for pose in poses {
            let magnitude = pose.acceleration.length
            guard let (up, along, forward) = Self.sagittal(pose.acceleration, mounting) else { return nil }
            let planar = along * along + forward * forward
            // The inclination's gradient with respect to the acceleration, radians per g.
            let gradient = (mounting.forwardAxis * along - mounting.shinAxis * forward) * (1 / planar)
            tilts.append(Self.row(gradient, up))
            inclinations.append(mounting.sagittalAngle(gravity: pose.acceleration))
            observe(Self.row(up, up), magnitude - 1, sigma: magnitudeSigma)
        }
        for i in poses.indices.dropFirst() where poses[i].isTurnComplete {
            let gyroTurn = (poses[i].gyroAngle - poses[i - 1].gyroAngle) / degrees
            let accelerometerTurn = AngleUnwrapper.halfTurn(inclinations[i] - inclinations[i - 1]) / degrees
            var row = zip(tilts[i], tilts[i - 1]).map { $0 - $1 }
            row[unknownCount - 1] = -gyroGainSigma * gyroTurn
            let drift = biasSigma * abs(poses[i].time - poses[i - 1].time)
            let sigma = ((2 * inclinationSigma * inclinationSigma + drift * drift).squareRoot()) / degrees
            observe(row, accelerometerTurn - gyroTurn, sigma: sigma)
        }
        guard let unknowns = solve(precision, information) else { return nil }
        return tilts.map { row in zip(row, unknowns).reduce(0) { $0 + $1.0 * $1.1 } * degrees }
    }

    /// The coefficients on the whitened unknowns of `probe · (error at the true direction up)`:
    /// the error is offset + M·up, so probe·offset + Σ probe_j M_jk up_k.
    private static func row(_ probe: Vector3, _ up: Vector3) -> [Double] {
        var row = [Double](repeating: 0, count: unknownCount)
        for j in 0..<3 {
            row[j] = offsetSigma * probe[j]
            for k in 0..<3 {
                row[3 + 3 * j + k] = (j == k ? scaleSigma : crossAxisSigma) * probe[j] * up[k]
            }
        }
        return row
    }
}
