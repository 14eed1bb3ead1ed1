/// Statistics of a window of raw samples that should have been recorded with the device still.
public struct StillWindow: Hashable, Sendable {
    public let count: Int
    /// Mean accelerometer in g.
    public let meanAcceleration: Vector3
    /// Mean gyro in °/s.
    public let meanRotationRate: Vector3
    /// Largest distance of a gyro sample from the mean, °/s.
    public let gyroDeviation: Double
    /// Largest distance of an accelerometer sample from the mean, g.
    public let accelerationDeviation: Double
    /// How fast the accelerometer's direction turned across the window, °/s: the slope of a line
    /// through it. A slow, smooth turn passes the deviations' thresholds; this shows it, but for a
    /// turn about the vertical.
    public let tiltRate: Double

    /// - Throws: ``CalibrationError/tooFewSamples(needed:got:)`` for fewer than `minimumCount` samples.
    public init<Samples: Collection<InertialSample>>(_ samples: Samples, minimumCount: Int = 10)
        throws(CalibrationError)
    {
        guard samples.count >= minimumCount else {
            throw .tooFewSamples(needed: minimumCount, got: samples.count)
        }
        var accelerationSum = Vector3.zero, rateSum = Vector3.zero
        var run = StillRun()
        var previousTime: Double?
        for sample in samples {
            accelerationSum += sample.acceleration
            rateSum += sample.rotationRate
            run.add(
                rotationRate: sample.rotationRate, acceleration: sample.acceleration,
                interval: previousTime.map { sample.time - $0 } ?? 0)
            previousTime = sample.time
        }
        let n = Double(samples.count)
        let meanAcceleration = accelerationSum / n, meanRate = rateSum / n
        var gyroDeviation = 0.0, accelerationDeviation = 0.0
        for sample in samples {
            gyroDeviation = max(gyroDeviation, (sample.rotationRate - meanRate).length)
            accelerationDeviation = max(accelerationDeviation, (sample.acceleration - meanAcceleration).length)
        }
        self.count = samples.count
        self.meanAcceleration = meanAcceleration
        self.meanRotationRate = meanRate
        self.gyroDeviation = gyroDeviation
        self.accelerationDeviation = accelerationDeviation
        tiltRate = (run.fit?.directionRate?.length).map { $0 * 180 / Double.pi } ?? 0
    }

    /// Throws ``CalibrationError/moved(gyroDeviation:accelerationDeviation:)`` unless both deviations
    /// are within the rest thresholds of `parameters` (the same limits the filter uses for rest).
    public func requireStill(_ parameters: FusionParameters = FusionParameters()) throws(CalibrationError) {
        guard gyroDeviation <= parameters.restGyroThreshold,
            accelerationDeviation <= parameters.restAccelerationThreshold
        else { throw .moved(gyroDeviation: gyroDeviation, accelerationDeviation: accelerationDeviation) }
    }
}
