/// The guided calibration as a state machine fed one raw sample at a time, so that a terminal, a
/// daemon with an LED and a buzzer, and the accuracy bench all run the very same procedure.
///
/// It advances on its own whenever the device is found still in a new pose; nobody presses a key:
/// 1. ``Step/holdStill``: lying still on a table for ``Parameters/biasSeconds``; any movement
///    refuses the calibration (``CalibrationError/moved(gyroDeviation:accelerationDeviation:)``).
/// 2. ``Step/nextFace(captured:)``: tipped over an edge onto each other face in turn, then once
///    more onto a face used before (seven poses, so that each axis is turned about twice); a pose
///    counts once it has been at rest for ``Parameters/poseSeconds`` and is more than
///    ``Parameters/newPoseDegrees`` from every face so far (the last one: from the pose before).
///    Then the gyro bias, the accelerometer offset and the full correction matrices of both
///    sensors are fitted (``Calibration/fromFaces(_:parameters:)``).
/// 3. ``Step/strapOn``: moved, strapped to the front of the shin below the knee, the patient
///    seated with the shin vertical, then at rest: the start pose gives the shin axis.
/// 4. ``Step/swing``: one knee extension and back to rest: the swing gives the hinge axis
///    (``Calibration/mounting(startPose:swing:parameters:)``). A movement of less than 20° that
///    comes to rest is not the swing: its rest becomes the start pose.
/// 5. ``Step/finished``: ``calibration`` holds the result.
///
/// The thigh's board takes steps 1 and 2 only (``Parameters/endsAfterFaces``): its place on the leg
/// comes from the knee swings of ``HingeCalibration``, with both boards strapped on.
///
/// A step that takes longer than ``Parameters/stepTimeoutSeconds`` fails.
public struct GuidedCalibration: Sendable {
    /// Where the procedure is; each is a prompt for the person doing it.
    public enum Step: Hashable, Sendable {
        case holdStill
        /// `captured` poses of ``Calibration/facePoses`` are done; tip the device onto a face not
        /// used yet, or, after the sixth, once more onto a face used before.
        case nextFace(captured: Int)
        case strapOn
        case swing
        case finished
    }

    /// The procedure's timing.
    public struct Parameters: Hashable, Sendable {
        /// The still window of the gyro bias, seconds.
        public var biasSeconds: Double = 3
        /// How long the device must read as still before a pose is taken, seconds; the mean of that
        /// stretch is the pose. After a tip the rest detector's reference needs about 1.5 s to
        /// settle, so a pose held 2.5 s is enough.
        public var poseSeconds: Double = 1
        /// Least angle between a new face and every face so far, degrees: adjacent faces are 90°
        /// apart, a device set down crooked on the same face a few degrees.
        public var newPoseDegrees: Double = 45
        /// Largest mean rotation rate (°/s, after the bias known so far) of a pose's window. The rest
        /// detector follows a slow, smooth turn (it compares with a low-passed reference), so a
        /// window can pass its thresholds while turning a few degrees a second; its mean cannot.
        public var poseRateTolerance: Double = 0.5
        /// Longest time one step may take, seconds.
        public var stepTimeoutSeconds: Double = 120
        /// Finish once the faces are fitted, without the strapped steps: the thigh board's
        /// procedure.
        public var endsAfterFaces = false
        public var fusion = FusionParameters()

        public init() {}
    }

    /// The side of the device to turn up at each pose, in the order the prompts suggest: each
    /// axis is then turned about twice, from faces at right angles, as
    /// ``Calibration/fromFaces(_:parameters:)`` needs. Another order that does this works too.
    public static let faceOrder = ["+z", "+y", "-z", "+x", "-y", "-x", "-z"]

    public let parameters: Parameters
    public private(set) var step = Step.holdStill
    /// The result, once ``step`` is ``Step/finished``.
    public private(set) var calibration: Calibration?

    private var detector: RestDetector
    private var previousTime: Double?
    private var stepStart: Double?
    /// Raw samples from the start to the last pose on the table, for the fit.
    private var tableSamples: [InertialSample] = []
    private var poses: [Vector3] = []
    private var movedSincePose = false
    /// The gyro reading at rest: the first window's mean until the fit, then zero (the samples are
    /// corrected from then on).
    private var restingRate = Vector3.zero
    private var lastPoseCheck = -Double.infinity
    /// When the detector last began to read still; nil while moving.
    private var stillStart: Double?
    /// Corrected samples of the strapped start pose's rest, then of the swing.
    private var startPose: [InertialSample] = []
    private var swing: [InertialSample] = []

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
        detector = RestDetector(parameters: parameters.fusion)
        // Two minutes at 200 Hz: the table part never reallocates at a person's pace.
        tableSamples.reserveCapacity(24_000)
    }

    /// Feeds one raw sample.
    /// - Returns: the step after it.
    /// - Throws: ``CalibrationError`` when the procedure cannot go on; the procedure is over then.
    @discardableResult
    public mutating func update(_ raw: InertialSample) throws(CalibrationError) -> Step {
        let interval = previousTime.map { max(0, raw.time - $0) } ?? 0
        previousTime = raw.time
        let corrected = calibration?.corrected(raw) ?? raw
        detector.update(rotationRate: corrected.rotationRate, acceleration: corrected.acceleration, interval: interval)
        let start = stepStart ?? raw.time
        stepStart = start
        if raw.time - start > parameters.stepTimeoutSeconds, step != .finished {
            throw .stepTimedOut(step: "\(step)", seconds: raw.time - start)
        }
        stillStart = detector.isStill ? (stillStart ?? raw.time) : nil

        switch step {
        case .holdStill:
            tableSamples.append(raw)
            if !detector.isStill {
                // The bias is the mean of a still window: a movement in it refuses the calibration.
                let window = try StillWindow(tableSamples, minimumCount: 1)
                throw .moved(gyroDeviation: window.gyroDeviation, accelerationDeviation: window.accelerationDeviation)
            }
            if raw.time - start >= parameters.biasSeconds {
                let window = try StillWindow(tableSamples)
                try window.requireStill(parameters.fusion)
                guard let pose = window.meanAcceleration.normalized else { throw .implausibleFit("zero acceleration") }
                poses = [pose]
                restingRate = window.meanRotationRate
                advance(to: .nextFace(captured: 1), at: raw.time)
            }
        case .nextFace(let captured):
            tableSamples.append(raw)
            if !detector.isStill { movedSincePose = true }
            // The detector follows slow turns; the pose's own window must be still as well. It is
            // looked at ten times a second, not at every sample.
            guard movedSincePose, let still = stillStart, raw.time - still >= parameters.poseSeconds,
                raw.time - lastPoseCheck >= 0.1
            else { break }
            lastPoseCheck = raw.time
            guard let window = stillWindow(tableSamples, lastSeconds: parameters.poseSeconds),
                let pose = window.meanAcceleration.normalized
            else { break }
            movedSincePose = false
            let threshold = parameters.newPoseDegrees * Double.pi / 180
            let compared = captured < 6 ? poses[...] : poses.suffix(1)
            guard compared.allSatisfy({ $0.angle(to: pose) > threshold }) else { break }
            poses.append(pose)
            if captured + 1 < Calibration.facePoses {
                advance(to: .nextFace(captured: captured + 1), at: raw.time)
            } else {
                calibration = try Calibration.fromFaces(tableSamples, parameters: parameters.fusion)
                restingRate = .zero
                tableSamples = []
                // From here on the samples are corrected: a reference built on raw ones would read
                // the jump as a movement.
                detector = RestDetector(parameters: parameters.fusion)
                advance(to: parameters.endsAfterFaces ? .finished : .strapOn, at: raw.time)
            }
        case .strapOn:
            if !detector.isStill { movedSincePose = true }
            guard movedSincePose else { break }
            if stillStart != nil { startPose.append(corrected) } else { startPose.removeAll(keepingCapacity: true) }
            if let still = stillStart, raw.time - still >= parameters.poseSeconds + 0.5,
                stillWindow(startPose, lastSeconds: parameters.poseSeconds) != nil
            {
                startPose = Array(startPose.drop { $0.time < raw.time - parameters.poseSeconds })
                movedSincePose = false
                advance(to: .swing, at: raw.time)
            }
        case .swing:
            swing.append(corrected)
            if !detector.isStill { movedSincePose = true }
            guard movedSincePose, let still = stillStart, raw.time - still >= parameters.poseSeconds,
                raw.time - lastPoseCheck >= 0.1, var result = calibration
            else { break }
            lastPoseCheck = raw.time
            guard stillWindow(swing, lastSeconds: parameters.poseSeconds) != nil else { break }
            movedSincePose = false
            do throws(CalibrationError) {
                result.mounting = try Calibration.mounting(
                    startPose: startPose, swing: swing, parameters: parameters.fusion)
            } catch .tooLittleRotation {
                // A shuffle or the end of strapping on, not the swing: this rest is the start pose.
                startPose = Array(swing.drop { $0.time < raw.time - parameters.poseSeconds })
                swing.removeAll(keepingCapacity: true)
                break
            }
            calibration = result
            advance(to: .finished, at: raw.time)
        case .finished:
            break
        }
        return step
    }

    private mutating func advance(to next: Step, at time: Double) {
        step = next
        stepStart = time
    }

    /// The statistics of the samples of the last `seconds`, when they were still and not turning.
    private func stillWindow(_ samples: [InertialSample], lastSeconds seconds: Double) -> StillWindow? {
        guard let last = samples.last else { return nil }
        let from = samples.lastIndex { $0.time < last.time - seconds }.map { $0 + 1 } ?? samples.startIndex
        guard let window = try? StillWindow(samples[from...]), (try? window.requireStill(parameters.fusion)) != nil,
            (window.meanRotationRate - restingRate).length <= parameters.poseRateTolerance
        else { return nil }
        return window
    }
}
