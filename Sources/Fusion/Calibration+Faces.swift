extension Calibration {
    /// Still poses the face procedure needs: the six faces and one more turn, so that each axis
    /// is turned about twice.
    public static let facePoses = 7

    /// The whole sensor calibration from one recording of the face procedure.
    ///
    /// The device rests on each of its six faces in turn, at least 2 s each, is tipped over an
    /// edge between them, and then once more onto a face used before, so that each of its axes is
    /// turned about twice from faces at right angles (the order in
    /// ``sensitivities(turnsIn:gyroBias:accelerometerOffset:accelerometerDiagonal:parameters:)``).
    /// The still poses give the gyro bias (their mean rate) and the accelerometer offset and
    /// sensitivity (``accelerometer(poses:)``); the turns give the gyro matrix and the
    /// accelerometer's cross-axis terms. The mounting is not part of it.
    /// - Parameter samples: raw samples of the procedure, in time order.
    /// - Throws: ``CalibrationError/tooFewPoses(needed:got:)`` when fewer than ``facePoses`` still
    ///   poses are found, ``CalibrationError/moved(gyroDeviation:accelerationDeviation:)`` when a
    ///   pose was not still, and the errors of the accelerometer and turn fits.
    public static func fromFaces(_ samples: [InertialSample], parameters: FusionParameters = FusionParameters())
        throws(CalibrationError) -> Calibration
    {
        let runs = stillRuns(in: samples, parameters: parameters)
        guard runs.count >= facePoses else { throw .tooFewPoses(needed: facePoses, got: runs.count) }
        var windows: [StillWindow] = []
        for run in runs {
            let window = try StillWindow(samples[stillPart(of: run, in: samples)])
            try window.requireStill(parameters)
            windows.append(window)
        }
        var rateSum = Vector3.zero, count = 0
        for window in windows {
            rateSum += window.meanRotationRate * Double(window.count)
            count += window.count
        }
        let gyroBias = rateSum / Double(count)
        let accelerometer = try accelerometer(poses: windows.map(\.meanAcceleration))
        let fitted = try sensitivities(
            turnsIn: samples, gyroBias: gyroBias, accelerometerOffset: accelerometer.offset,
            accelerometerDiagonal: accelerometer.correction, parameters: parameters)
        return Calibration(
            gyroBias: gyroBias, gyroMatrix: fitted.gyro, accelerometerOffset: accelerometer.offset,
            accelerometerMatrix: fitted.accelerometer)
    }
}
