extension Calibration {
    /// The whole sensor calibration from one recording of the six-face procedure.
    ///
    /// The device rests on each of its six faces in turn, at least 2 s each, and is tipped over an
    /// edge between them, so that the turns are about all three axes (for example: tip about x, x,
    /// then y, then z, z). The still poses give the gyro bias (their mean rate) and the accelerometer
    /// offset and scale (``accelerometer(poses:)``); the turns between them give the gyro sensitivity
    /// (``gyroScale(recordings:parameters:)``). The mounting is not part of it.
    /// - Parameter samples: raw samples of the procedure, in time order.
    /// - Throws: ``CalibrationError/tooFewPoses(needed:got:)`` when fewer than six still poses are
    ///   found, ``CalibrationError/moved(gyroDeviation:accelerationDeviation:)`` when a pose was not
    ///   still, and the errors of the accelerometer and gyro fits.
    public static func fromFaces(_ samples: [InertialSample], parameters: FusionParameters = FusionParameters())
        throws(CalibrationError) -> Calibration
    {
        let runs = stillRuns(in: samples, parameters: parameters)
        guard runs.count >= 6 else { throw .tooFewPoses(needed: 6, got: runs.count) }
        var windows: [StillWindow] = []
        for run in runs {
            // The rest detector compares with a low-passed reference, so it reads the first
            // instants of a smooth turn (up to its 2 °/s threshold) as still: a run followed by a
            // turn loses its last quarter second.
            var upper = run.upperBound
            if run.upperBound < samples.count - 1 {
                let cut = samples[run.upperBound].time - 0.25
                while upper > run.lowerBound, samples[upper].time > cut { upper -= 1 }
            }
            let window = try StillWindow(samples[run.lowerBound...upper])
            try window.requireStill(parameters)
            windows.append(window)
        }
        var rateSum = Vector3.zero, count = 0
        for window in windows {
            rateSum += window.meanRotationRate * Double(window.count)
            count += window.count
        }
        let accelerometer = try accelerometer(poses: windows.map(\.meanAcceleration))
        var calibration = Calibration(
            gyroBias: rateSum / Double(count), accelerometerOffset: accelerometer.offset,
            accelerometerScale: accelerometer.scale)
        calibration.gyroScale = try gyroScale(recordings: [samples.map(calibration.corrected)], parameters: parameters)
        return calibration
    }
}
