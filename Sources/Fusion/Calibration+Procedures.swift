/// The calibration steps as pure functions over recorded samples; the guided procedure that records
/// them (prompts, timing, the file) lives with the command line.
extension Calibration {
    /// The gyro bias from a window recorded with the device still.
    /// - Parameter still: raw samples; at least 10.
    /// - Returns: the mean gyro in °/s.
    /// - Throws: ``CalibrationError/moved(gyroDeviation:accelerationDeviation:)`` if the device moved.
    public static func gyroBias<Samples: Collection<InertialSample>>(
        still: Samples, parameters: FusionParameters = FusionParameters()
    ) throws(CalibrationError) -> Vector3 {
        let window = try StillWindow(still)
        try window.requireStill(parameters)
        return window.meanRotationRate
    }

    /// Accelerometer offset and sensitivity correction per axis from still poses in different
    /// orientations; the cross-axis terms come from the turns between them
    /// (``sensitivities(turnsIn:gyroBias:accelerometerOffset:accelerometerDiagonal:parameters:)``).
    ///
    /// Fits the axis-aligned ellipsoid `Σᵢ (correctionᵢ (mᵢ − offsetᵢ))² = 1` to the poses' mean readings by
    /// linear least squares on `A x² + B y² + C z² + D x + E y + F z = 1`. Six poses with each axis up and
    /// down once (the faces of a box) determine it well; more poses in other orientations average.
    /// - Parameter poses: the mean raw accelerometer (g) of each still pose; at least 6.
    /// - Throws: ``CalibrationError/tooFewPoses(needed:got:)``, ``CalibrationError/posesNotSpread``,
    ///   or ``CalibrationError/implausibleFit(_:)`` when the result is outside the datasheet tolerances
    ///   or leaves a pose more than 0.02 g from 1 g.
    public static func accelerometer(poses: [Vector3]) throws(CalibrationError) -> (
        offset: Vector3, correction: Vector3
    ) {
        guard poses.count >= 6 else { throw .tooFewPoses(needed: 6, got: poses.count) }
        // Each axis must see both signs, or its offset and scale trade off against each other.
        for axis in 0..<3 {
            let values = poses.map { [$0.x, $0.y, $0.z][axis] }
            guard let low = values.min(), let high = values.max(), low < -0.5, high > 0.5
            else { throw .posesNotSpread }
        }
        var normal = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6)
        var rhs = [Double](repeating: 0, count: 6)
        for m in poses {
            let row = [m.x * m.x, m.y * m.y, m.z * m.z, m.x, m.y, m.z]
            for i in 0..<6 {
                rhs[i] += row[i]
                for j in 0..<6 { normal[i][j] += row[i] * row[j] }
            }
        }
        guard let c = solve(normal, rhs) else { throw .posesNotSpread }
        guard c[0] > 0, c[1] > 0, c[2] > 0 else { throw .implausibleFit("the readings do not lie on an ellipsoid") }
        let offset = Vector3(-c[3] / (2 * c[0]), -c[4] / (2 * c[1]), -c[5] / (2 * c[2]))
        let g = 1 + c[0] * offset.x * offset.x + c[1] * offset.y * offset.y + c[2] * offset.z * offset.z
        let correction = Vector3((c[0] / g).squareRoot(), (c[1] / g).squareRoot(), (c[2] / g).squareRoot())
        let fitted = Calibration(accelerometerOffset: offset, accelerometerMatrix: Matrix3(diagonal: correction))
        if let problem = fitted.problems.first { throw .implausibleFit(problem) }
        for pose in poses {
            let length = (pose - offset).scaled(by: correction).length
            guard abs(length - 1) <= 0.02 else {
                throw .implausibleFit("a position reads \(length) g after correction; was it still?")
            }
        }
        return (offset, correction)
    }

    /// The mounting from a still start pose (shin vertical) and a swing of the lower leg (extend, lower).
    /// - Parameters:
    ///   - startPose: calibrated samples with the patient seated, shin vertical, still.
    ///   - swing: calibrated samples of the swing; its larger excursion is taken as extension.
    /// - Throws: ``CalibrationError/moved(gyroDeviation:accelerationDeviation:)`` if the start pose
    ///   was not still, ``CalibrationError/tooLittleRotation(degrees:)`` if the swing turned less than 20°.
    public static func mounting<Pose: Collection<InertialSample>, Swing: Sequence<InertialSample>>(
        startPose: Pose, swing: Swing, parameters: FusionParameters = FusionParameters()
    ) throws(CalibrationError) -> Mounting {
        let window = try StillWindow(startPose)
        try window.requireStill(parameters)
        guard let shin = window.meanAcceleration.normalized else { throw .implausibleFit("zero acceleration") }
        var scatter = RotationScatter()
        // The rotation vector accumulated since the start pose (°); for a turn about one axis it is
        // that axis times the angle, so its largest value marks the largest excursion.
        var turned = Vector3.zero, largest = Vector3.zero
        var previousTime: Double?
        for sample in swing {
            let interval = previousTime.map { max(0, sample.time - $0) } ?? 0
            previousTime = sample.time
            let rate = sample.rotationRate - window.meanRotationRate
            scatter.add(rate, interval: interval)
            turned += rate.rejecting(shin) * interval
            if turned.length > largest.length { largest = turned }
        }
        guard largest.length >= 20 else { throw .tooLittleRotation(degrees: largest.length) }
        guard let (axis, _) = scatter.principalAxis(perpendicularTo: shin),
            let mounting = Mounting(shinAxis: shin, hingeAxis: axis.dot(largest) >= 0 ? axis : -axis)
        else { throw .tooLittleRotation(degrees: largest.length) }
        return mounting
    }
}

/// Solves the square system `a · x = b` by Gaussian elimination with partial pivoting; `nil` when
/// it is singular or badly conditioned.
func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
    let n = b.count
    var m = a, x = b
    let scale = a.joined().map(abs).max() ?? 0
    guard scale > 0 else { return nil }
    for column in 0..<n {
        guard let pivot = (column..<n).max(by: { abs(m[$0][column]) < abs(m[$1][column]) }),
            abs(m[pivot][column]) > scale * 1e-12
        else { return nil }
        m.swapAt(column, pivot)
        x.swapAt(column, pivot)
        for row in (column + 1)..<n {
            let factor = m[row][column] / m[column][column]
            guard factor != 0 else { continue }
            for k in column..<n { m[row][k] -= factor * m[column][k] }
            x[row] -= factor * x[column]
        }
    }
    for row in stride(from: n - 1, through: 0, by: -1) {
        var sum = x[row]
        for k in (row + 1)..<n { sum -= m[row][k] * x[k] }
        x[row] = sum / m[row][row]
    }
    return x
}
