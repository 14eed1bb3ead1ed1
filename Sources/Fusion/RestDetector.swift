/// Decides whether the sensor is at rest from how much the gyro and accelerometer vary.
///
/// Each sample is compared with a low-passed reference. Comparing with the reference rather than with
/// zero lets a constant gyro bias, however large, count as rest, so the bias can be measured there.
///
/// A relaxed leg trembles at 6–10 Hz: a tremor of 0.8 °/s rms about the knee peaks beyond the 2 °/s
/// threshold every fraction of a second, and its 0.02 g of tangential acceleration (0.7 rad/s² at a
/// 30 cm lever) peaks near 0.05 g, so a test of each sample alone would never find 1.5 s of rest. Once
/// the sensor has shown such a peak — one whose deviations, low-passed over
/// ``FusionParameters/restTremorTimeConstant``, stayed within the thresholds and whose samples stayed
/// within ``FusionParameters/restTremorPeakFactor`` times them — the following peaks of that kind
/// count as still too. Until then, and again after any sample that is not of that kind, every sample
/// beyond a threshold ends the stillness at once: without tremor the detector decides sample by sample
/// and a movement ends a still run on its first sample beyond a threshold, so no sample of the
/// movement enters the rest's average of the bias. A trembling leg's movement ends it at the latest
/// where it passes three times the thresholds, 0.03 s into a knee extension that reaches 30 °/s in
/// 0.15 s. The tremor's first peak pauses the run: its samples are not still, and when it ends as a
/// tremor's peak the run goes on with their time counted, so the patient, waiting for the signal to
/// go, does not wait 1.5 s more (a first rest of a few seconds would often not be confirmed before
/// the leg moved). A peak that turns out to be a movement ends the run where the peak began.
public struct RestDetector: Sendable {
    public let parameters: FusionParameters
    /// Low-passed gyro in °/s: during rest, the gyro bias.
    public private(set) var referenceRotationRate = Vector3.zero
    /// Low-passed accelerometer in g.
    public private(set) var referenceAcceleration = Vector3.zero
    /// Whether the last sample was within the thresholds, or a tremor's peak.
    public private(set) var isStill = false
    /// Whether the last sample was beyond a threshold by more than a tremor's peak: a movement. The
    /// first peak of a tremor is neither still nor moving.
    public private(set) var isMoving = false
    /// Seconds the samples have been continuously still.
    public private(set) var stillDuration = 0.0
    /// Samples the reference holds, up to the low-pass's time constant's worth.
    private var referenceCount = 0.0
    /// The low-pass steps for the last interval: sensor intervals repeat, a division need not.
    private var step = (interval: 0.0, k: 0.0, tremor: 0.0)
    /// The deviations from the reference, low-passed over the tremor's time constant.
    private var smoothedRotationDeviation = Vector3.zero
    private var smoothedAccelerationDeviation = Vector3.zero
    /// Whether a tremor's peak has been seen since the last sample that ended the stillness.
    private var isTrembling = false
    /// Whether the samples beyond a threshold since the last one within both have all been a tremor's
    /// peak; nil while the samples are within the thresholds.
    private var peakIsTremor: Bool?
    /// The still run's duration, with the peak's samples so far, while a first tremor's peak
    /// interrupts it.
    private var pausedStillDuration: Double?

    public init(parameters: FusionParameters) {
        self.parameters = parameters
    }

    /// Whether the sensor has been still for at least ``FusionParameters/restMinimumDuration``.
    public var isAtRest: Bool { stillDuration >= parameters.restMinimumDuration }

    /// Whether the last sample belongs to a first tremor's peak that interrupted a still run: neither
    /// still nor moving, and the run resumes if the peak ends as a tremor's.
    public var isPaused: Bool { pausedStillDuration != nil }

    /// Feeds one sample.
    /// - Parameters:
    ///   - rotationRate: gyro in °/s, before bias correction.
    ///   - acceleration: accelerometer in g.
    ///   - interval: seconds since the previous sample (0 for the first).
    public mutating func update(rotationRate: Vector3, acceleration: Vector3, interval: Double) {
        guard referenceCount > 0 else {
            referenceRotationRate = rotationRate
            referenceAcceleration = acceleration
            referenceCount = 1
            isStill = true
            stillDuration = 0
            return
        }
        // First-order low-passes: the reference need only follow posture, not shape a response.
        if interval != step.interval {
            let k = interval / (parameters.restFilterTimeConstant + interval)
            step = (interval, k, interval / (parameters.restTremorTimeConstant + interval))
        }
        // Until the low-pass has a time constant's worth of samples, the reference is their mean: a
        // first sample taken at a tremor's peak, 2 °/s from its mean, would otherwise stay in the
        // reference for a second and make the tremor look like a movement.
        var k = step.k
        if referenceCount * k < 1 {
            referenceCount += 1
            k = max(k, 1 / referenceCount)
        }
        referenceRotationRate += (rotationRate - referenceRotationRate) * k
        referenceAcceleration += (acceleration - referenceAcceleration) * k
        let rotationDeviation = rotationRate - referenceRotationRate
        let accelerationDeviation = acceleration - referenceAcceleration
        smoothedRotationDeviation += (rotationDeviation - smoothedRotationDeviation) * step.tremor
        smoothedAccelerationDeviation += (accelerationDeviation - smoothedAccelerationDeviation) * step.tremor
        let gyroLimit = parameters.restGyroThreshold
        let accelerationLimit = parameters.restAccelerationThreshold
        let rotationSquared = rotationDeviation.lengthSquared
        let accelerationSquared = accelerationDeviation.lengthSquared
        if rotationSquared <= gyroLimit * gyroLimit && accelerationSquared <= accelerationLimit * accelerationLimit {
            if peakIsTremor == true {
                isTrembling = true
                if let pausedStillDuration { stillDuration = pausedStillDuration }
            }
            pausedStillDuration = nil
            peakIsTremor = nil
            isStill = true
            isMoving = false
        } else {
            let factor = parameters.restTremorPeakFactor
            let peakGyroLimit = gyroLimit * factor
            let peakAccelerationLimit = accelerationLimit * factor
            let isTremor =
                rotationSquared <= peakGyroLimit * peakGyroLimit
                && accelerationSquared <= peakAccelerationLimit * peakAccelerationLimit
                && smoothedRotationDeviation.lengthSquared <= gyroLimit * gyroLimit
                && smoothedAccelerationDeviation.lengthSquared <= accelerationLimit * accelerationLimit
            if peakIsTremor == nil, isStill, !isTrembling, isTremor { pausedStillDuration = stillDuration }
            peakIsTremor = (peakIsTremor ?? true) && isTremor
            if peakIsTremor == true, let paused = pausedStillDuration {
                pausedStillDuration = paused + interval
            } else {
                pausedStillDuration = nil
            }
            isStill = isTrembling && isTremor
            isMoving = !isTremor
            if !isStill { isTrembling = false }
        }
        stillDuration = isStill ? stillDuration + interval : 0
    }
}
