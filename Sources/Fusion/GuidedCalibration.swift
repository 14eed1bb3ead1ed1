/// The guided calibration as a state machine fed one raw sample at a time, so that a terminal, a
/// daemon with an LED and a buzzer, and the accuracy bench all run the very same procedure.
///
/// It advances on its own whenever the device is found still in a new pose; nobody presses a key:
/// 1. ``Step/holdStill``: lying still on a table for ``Parameters/biasSeconds``; any movement
///    refuses the calibration (``CalibrationError/moved(gyroDeviation:accelerationDeviation:)``).
/// 2. ``Step/nextFace(captured:)``: tipped over an edge onto each other face in turn, then once
///    more onto a face used before (seven poses, so that each axis is turned about twice); a pose
///    counts once it has been at rest for ``Parameters/poseSeconds``, is more than
///    ``Parameters/newPoseDegrees`` from every face so far (the last one: from the pose before) and
///    is the face asked for.
///    - ``Step/wrongFace(up:asked:after:)``: the device lies still on a new face, but not the one
///      asked for (a face let go of too soon and tipped on, or tipped the wrong way). Taken, it
///      would put the prompts out of step with the person and leave out a tip the fit needs, which
///      would then be refused for reasons far from the cause; so it is not, and the prompt says
///      which side is up and to go back to the last face taken, to make the tip from there.
///    Then the gyro bias, the accelerometer offset and the full correction matrices of both
///    sensors are fitted (``Calibration/fromFaces(_:parameters:)``).
///    - ``Step/retakeFace(_:)``: when samples were lost during a tip (the computer fell behind the
///      sensor), that turn is no use to the fit, and seven poses have no turn to spare. Rather than
///      refuse the whole procedure, it asks for the lost tips again, face by face (the face the tip
///      left, unless the device already lies on it, then the face it reached), up to
///      ``Parameters/retakePoses`` poses in all, and fits again with every turn it has.
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
        /// Samples were lost during a tip between two faces: turn the device so that `face` (as
        /// in ``GuidedCalibration/faceOrder``) is up, to make that tip again.
        case retakeFace(String)
        /// The device lies still on its `up` face, a new one but not the `asked` one: turn it back
        /// to `after` up, the last face taken, and tip it from there to `asked` up, so that the tip
        /// the fit needs is made. The step asking for it goes on.
        case wrongFace(up: String, asked: String, after: String)
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
        /// Largest mean rotation rate (°/s, after the bias known so far) of a pose's window. At rest
        /// the gyro reads its zero, and the zero moves from face to face by the gyro's sensitivity
        /// to acceleration (0.1 °/s per g on a typical axis; a new face moves gravity by up to 2 g),
        /// so 0.2 °/s on a typical part and twice that on one twice as sensitive: the gyro alone
        /// cannot hold a pose to less. It does hold a turn about the vertical, which the
        /// accelerometer cannot see.
        public var poseRateTolerance: Double = 1.0
        /// Largest turn of the accelerometer's direction across a face's window, °/s. The rest
        /// detector follows a slow, smooth turn (it compares with a low-passed reference), so a
        /// window can pass its thresholds while tilting a few degrees a second; a face on a table
        /// does not tilt at all, and over the 1 s window the slope's noise is about 0.04 °/s.
        public var poseTiltRateTolerance: Double = 0.2
        /// Longest time one step may take, seconds.
        public var stepTimeoutSeconds: Double = 120
        /// Most poses taken again for tips that lost samples, before the calibration is refused:
        /// two lost tips from anywhere on the table. A host that loses samples that often is too
        /// busy to calibrate on.
        public var retakePoses = 4
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

    /// Largest angle (degrees) between a face's axis and the vertical for the device to lie flat
    /// on that face: a box on a table lies within a few degrees, an uncalibrated accelerometer's
    /// offsets tilt its reading by up to 5°.
    static let flatDegrees = 20.0

    /// The face (as in ``faceOrder``) that is up when the accelerometer reads `up`: its axis
    /// nearest the vertical. An uncalibrated part's offsets (up to 80 mg) cannot change which.
    public static func face(pointingUp up: Vector3) -> String {
        let components = [("x", up.x), ("y", up.y), ("z", up.z)]
        let (axis, value) = components.max { abs($0.1) < abs($1.1) } ?? ("z", 1)
        return (value < 0 ? "-" : "+") + axis
    }

    /// The sensor axis that points up when `face` (as in ``faceOrder``) is up.
    public static func upAxis(ofFace face: String) -> Vector3? {
        let axes: [Character: Vector3] = ["x": .unitX, "y": .unitY, "z": .unitZ]
        guard face.count == 2, let sign = face.first, "+-".contains(sign), let axis = axes[face.last ?? " "] else {
            return nil
        }
        return sign == "-" ? -axis : axis
    }

    public let parameters: Parameters
    public private(set) var step = Step.holdStill
    /// The faces to turn up again for tips that lost samples, the first being asked for now
    /// (``Step/retakeFace(_:)``); empty otherwise.
    public private(set) var retakeFaces: [String] = []
    /// The result, once ``step`` is ``Step/finished``.
    public private(set) var calibration: Calibration?

    private var detector: RestDetector
    private var previousTime: Double?
    private var stepStart: Double?
    /// Raw samples from the start to the last pose on the table, for the fit.
    private var tableSamples: [InertialSample] = []
    private var poses: [Vector3] = []
    /// The face (``faceOrder``) each pose was asked for.
    private var faces: [String] = []
    /// The tips that lost samples and were not made again yet, as the faces they left and reached.
    private var lostTips: [(from: String, to: String)] = []
    /// Whether samples were lost in a turn since the last pose.
    private var lostSincePose = false
    private var shortestInterval = Double.infinity
    private var previousUnbiased: InertialSample?
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
        if interval > 0 { shortestInterval = min(shortestInterval, interval) }
        let corrected = calibration?.corrected(raw) ?? raw
        // Whether a gap lost part of a turn is judged by the rates less the bias known so far.
        var unbiased = corrected
        unbiased.rotationRate -= restingRate
        defer { previousUnbiased = unbiased }
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
                faces = [Self.faceOrder[0]]
                restingRate = window.meanRotationRate
                advance(to: .nextFace(captured: 1), at: raw.time)
            }
        case .nextFace, .retakeFace, .wrongFace:
            tableSamples.append(raw)
            if !detector.isStill { movedSincePose = true }
            if let previousUnbiased,
                Calibration.losesTurn(
                    from: previousUnbiased, to: unbiased, period: shortestInterval, parameters: parameters.fusion)
            {
                lostSincePose = true
            }
            // The detector follows slow turns; the pose's own window must be still as well. It is
            // looked at ten times a second, not at every sample.
            guard movedSincePose, let still = stillStart, raw.time - still >= parameters.poseSeconds,
                raw.time - lastPoseCheck >= 0.1
            else { break }
            lastPoseCheck = raw.time
            // A face lies on a table and does not tilt at all.
            guard let window = stillWindow(tableSamples, lastSeconds: parameters.poseSeconds),
                window.tiltRate <= parameters.poseTiltRateTolerance, let pose = window.meanAcceleration.normalized
            else { break }
            movedSincePose = false
            let threshold = parameters.newPoseDegrees * Double.pi / 180
            // The six faces each differ from all before; the seventh and the tips made again, from
            // the pose before.
            let compared = poses.count < 6 ? poses[...] : poses.suffix(1)
            guard compared.allSatisfy({ $0.angle(to: pose) > threshold }) else { break }
            // Only the face asked for: a tip made again is short in the fit without it, and a person
            // who went on to strap the sensor on is not lying it on a face.
            let face = retakeFaces.first ?? Self.faceOrder[poses.count]
            if let up = Self.upAxis(ofFace: face), pose.angle(to: up) > threshold {
                // Lying flat on another face, it is named; lying on none (tilted against something,
                // strapped on a leg at an angle), it is not. The step's time runs on: a person who
                // never finds the face is refused in the end.
                let found = Self.face(pointingUp: pose)
                if let axis = Self.upAxis(ofFace: found), pose.angle(to: axis) <= Self.flatDegrees * Double.pi / 180,
                    let after = faces.last, found != after
                {
                    step = .wrongFace(up: found, asked: face, after: after)
                }
                break
            }
            if lostSincePose, let left = faces.last { lostTips.append((from: left, to: face)) }
            lostSincePose = false
            poses.append(pose)
            faces.append(face)
            if !retakeFaces.isEmpty { retakeFaces.removeFirst() }
            if retakeFaces.isEmpty, poses.count < Calibration.facePoses {
                advance(to: .nextFace(captured: poses.count), at: raw.time)
            } else if let next = retakeFaces.first {
                advance(to: .retakeFace(next), at: raw.time)
            } else {
                try fitFaces(at: raw.time)
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

    /// Fits the table part, then goes on to strapping on; or, when tips lost samples, asks for
    /// them again while ``Parameters/retakePoses`` allows.
    private mutating func fitFaces(at time: Double) throws(CalibrationError) {
        do throws(CalibrationError) {
            calibration = try Calibration.fromFaces(tableSamples, parameters: parameters.fusion)
        } catch .samplesLost(let turns) {
            var plan: [String] = []
            var at = faces.last
            for tip in lostTips {
                if tip.from != at { plan.append(tip.from) }
                plan.append(tip.to)
                at = tip.to
            }
            lostTips = []
            // Every pose past the seventh was one asked for again.
            let retaken = poses.count - Calibration.facePoses
            guard !plan.isEmpty, retaken + plan.count <= parameters.retakePoses else {
                throw .samplesLost(turns: turns)
            }
            retakeFaces = plan
            advance(to: .retakeFace(plan[0]), at: time)
            return
        }
        restingRate = .zero
        tableSamples = []
        // From here on the samples are corrected: a reference built on raw ones would read the jump
        // as a movement.
        detector = RestDetector(parameters: parameters.fusion)
        advance(to: parameters.endsAfterFaces ? .finished : .strapOn, at: time)
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

extension GuidedCalibration.Step: CustomStringConvertible {
    /// The step in words, for messages (a step that timed out).
    public var description: String {
        switch self {
        case .holdStill: "lying still for the gyro bias"
        case .nextFace(let captured):
            captured < GuidedCalibration.faceOrder.count
                ? "the \(GuidedCalibration.faceOrder[captured]) side up (pose \(captured + 1) of \(Calibration.facePoses))"
                : "the faces"
        case .retakeFace(let face): "the \(face) side up again, for a tip that lost samples"
        case .wrongFace(let up, let asked, let after): "the \(asked) side up, tipped from \(after) (\(up) is up)"
        case .strapOn: "the strapped start pose"
        case .swing: "the knee swing and the rest after it"
        case .finished: "none"
        }
    }
}
