/// The knee-axis step of the calibration as a state machine fed both boards' raw samples, one pair at
/// a time: the patient sits with both boards strapped on, then lets the lower leg swing freely a
/// few times, bending and straightening the knee and moving the thigh a little too, and holds
/// still again. The swings give ``HingeAxes`` (``HingeAxisIdentification``).
///
/// 1. ``Step/sitStill``: both boards at rest for ``Parameters/restSeconds``: their mean rates
///    are the gyro biases left after their corrections (the die has warmed since the table),
///    removed from every rate after.
/// 2. ``Step/swing``: from the first movement until both boards are at rest again for
///    ``Parameters/endRestSeconds``. A movement without a knee excursion of
///    ``Parameters/swingDegrees`` (settling in the chair) is not the swing and is dropped. The fit
///    is refused when the leg swung fewer than ``Parameters/minimumSwings`` times, when the thigh
///    hardly turned, or when the swings do not fit one hinge.
/// 3. ``Step/finished``: ``calibration`` is the one given with ``ThighCalibration/hingeAxes`` set.
///
/// The identification cannot tell which way along the knee the axis points; the shank board's
/// ``Mounting/hingeAxis`` from its own calibration (extension positive) does, so that calibration
/// is needed first. A step that takes longer than ``Parameters/stepTimeoutSeconds`` fails.
public struct HingeCalibration: Sendable {
    /// Where the procedure is; each is a prompt for the patient.
    public enum Step: Hashable, Sendable {
        case sitStill
        case swing
        case finished
    }

    public struct Parameters: Hashable, Sendable {
        /// The still window of the remaining gyro biases, seconds.
        public var restSeconds: Double = 2
        /// How long both boards must be at rest after the swings, seconds.
        public var endRestSeconds: Double = 1
        /// Least knee excursion between two turning points that counts as half a swing, degrees.
        public var swingDegrees: Double = 15
        /// Swings (a bend and a straightening each) the fit needs.
        public var minimumSwings = 3
        /// Least root-mean-square rate of the thigh across the knee's axis, °/s: below it the
        /// thigh's axis rests on too little motion.
        public var minimumThighMotion: Double = 5
        /// Largest angle between the knee's axis found in the shank board's frame and its
        /// mounting's hinge axis, degrees.
        public var mountingToleranceDegrees: Double = 30
        /// Longest time one step may take, seconds.
        public var stepTimeoutSeconds: Double = 120
        public var fusion = FusionParameters()

        public init() {}
    }

    public let parameters: Parameters
    public private(set) var step = Step.sitStill
    /// The calibration with the hinge axes, once ``step`` is ``Step/finished``.
    public private(set) var calibration: Calibration?
    /// The identification of the finished step, for a summary.
    public private(set) var fit: HingeAxisIdentification.Fit?
    /// Swings counted in the finished step.
    public private(set) var swings = 0

    private let base: Calibration
    private let shankHinge: Vector3
    private var shankDetector: RestDetector
    private var thighDetector: RestDetector
    private var previousTime: Double?
    private var stepStart: Double?
    /// When both boards last began to read still; nil while either moves.
    private var stillStart: Double?
    private var movedSinceRest = false
    /// Corrected samples of the current rest, while sitting still.
    private var rest: [(shank: InertialSample, thigh: InertialSample)] = []
    private var biases = (shank: Vector3.zero, thigh: Vector3.zero)
    /// Bias-free rates (thigh, shank) of the swing, and the times they were taken.
    private var rates: [(thigh: Vector3, shank: Vector3)] = []
    private var times: [Double] = []

    /// - Parameter calibration: the shank board's calibration, with its mounting, and the thigh
    ///   board's correction if it has one (else its raw rates are used, less the rest's bias).
    /// - Throws: ``CalibrationError/needsShankMounting`` without the shank board's mounting.
    public init(calibration: Calibration, parameters: Parameters = Parameters()) throws(CalibrationError) {
        guard let mounting = calibration.mounting else { throw .needsShankMounting }
        base = calibration
        shankHinge = mounting.hingeAxis
        self.parameters = parameters
        shankDetector = RestDetector(parameters: parameters.fusion)
        thighDetector = RestDetector(parameters: parameters.fusion)
    }

    /// Feeds one pair of raw samples taken at the same instant.
    /// - Returns: the step after it.
    /// - Throws: ``CalibrationError`` when the procedure cannot go on; it is over then.
    @discardableResult
    public mutating func update(_ shankRaw: InertialSample, thigh thighRaw: InertialSample) throws(CalibrationError)
        -> Step
    {
        guard step != .finished else { return step }
        let interval = previousTime.map { max(0, shankRaw.time - $0) } ?? 0
        previousTime = shankRaw.time
        let shank = base.corrected(shankRaw)
        let thigh = base.thigh?.corrected(thighRaw) ?? thighRaw
        shankDetector.update(rotationRate: shank.rotationRate, acceleration: shank.acceleration, interval: interval)
        thighDetector.update(rotationRate: thigh.rotationRate, acceleration: thigh.acceleration, interval: interval)
        let start = stepStart ?? shankRaw.time
        stepStart = start
        if shankRaw.time - start > parameters.stepTimeoutSeconds {
            throw .stepTimedOut(step: "\(step)", seconds: shankRaw.time - start)
        }
        let still = shankDetector.isStill && thighDetector.isStill
        stillStart = still ? (stillStart ?? shankRaw.time) : nil
        if !still { movedSinceRest = true }

        switch step {
        case .sitStill:
            guard still else {
                rest.removeAll(keepingCapacity: true)
                break
            }
            rest.append((shank, thigh))
            // The window is the last `restSeconds`: a rest that starts unsteady can still settle.
            if let drop = rest.firstIndex(where: { $0.shank.time >= shankRaw.time - parameters.restSeconds }), drop > 0
            {
                rest.removeFirst(drop)
            }
            guard let since = stillStart, shankRaw.time - since >= parameters.restSeconds,
                let shankWindow = try? StillWindow(rest.map(\.shank)),
                let thighWindow = try? StillWindow(rest.map(\.thigh)),
                (try? shankWindow.requireStill(parameters.fusion)) != nil,
                (try? thighWindow.requireStill(parameters.fusion)) != nil
            else { break }
            biases = (shankWindow.meanRotationRate, thighWindow.meanRotationRate)
            rest = []
            movedSinceRest = false
            advance(to: .swing, at: shankRaw.time)
        case .swing:
            rates.append((thigh.rotationRate - biases.thigh, shank.rotationRate - biases.shank))
            times.append(shankRaw.time)
            guard movedSinceRest, let since = stillStart, shankRaw.time - since >= parameters.endRestSeconds
            else { break }
            movedSinceRest = false
            guard let result = try identify() else {
                // No knee swing in it: settling in, not the swings. They are still to come.
                rates.removeAll(keepingCapacity: true)
                times.removeAll(keepingCapacity: true)
                break
            }
            var thighPart = base.thigh ?? ThighCalibration()
            thighPart.hingeAxes = result
            var finished = base
            finished.thigh = thighPart
            calibration = finished
            advance(to: .finished, at: shankRaw.time)
        case .finished:
            break
        }
        return step
    }

    /// The axes from the swing so far, oriented by the shank's mounting, or nil when it holds no
    /// knee excursion at all.
    private mutating func identify() throws(CalibrationError) -> HingeAxes? {
        let span = (times.last ?? 0) - (times.first ?? 0)
        let interval = times.count > 1 ? span / Double(times.count - 1) : 0
        guard interval > 0, var fit = HingeAxisIdentification.identify(rates: rates, interval: interval) else {
            return nil
        }
        let angle = fit.axes.shank.angle(to: shankHinge) * 180 / Double.pi
        if angle > 90 { fit.axes = fit.axes.reversed }
        let swings = Self.swings(in: rates, axes: fit.axes, interval: interval, least: parameters.swingDegrees)
        guard swings > 0 else { return nil }
        self.swings = swings
        self.fit = fit
        guard swings >= parameters.minimumSwings else {
            throw .tooFewSwings(counted: swings, needed: parameters.minimumSwings)
        }
        guard fit.thighExcitation >= parameters.minimumThighMotion else {
            throw .thighTooStill(degreesPerSecond: fit.thighExcitation)
        }
        guard fit.isDetermined else {
            throw .hingeNotDetermined(residual: fit.residual, motion: min(fit.thighExcitation, fit.shankExcitation))
        }
        let fromMounting = min(angle, 180 - angle)
        guard fromMounting <= parameters.mountingToleranceDegrees else {
            throw .hingeDisagreesWithMounting(degrees: fromMounting)
        }
        return fit.axes
    }

    /// Whole swings (a bend and a straightening) in the knee angle the rates give about `axes`:
    /// excursions of at least `least` degrees between turning points, two to a swing.
    static func swings(
        in rates: [(thigh: Vector3, shank: Vector3)], axes: HingeAxes, interval: Double, least: Double
    ) -> Int {
        var angle = 0.0, low = 0.0, high = 0.0
        var rising: Bool?
        var excursions = 0
        for pair in rates {
            angle += (pair.shank.dot(axes.shank) - pair.thigh.dot(axes.thigh)) * interval
            low = min(low, angle)
            high = max(high, angle)
            // An excursion counts once the angle has come back `least` from its extreme.
            if rising != false, high - angle >= least {
                if rising == true { excursions += 1 }
                rising = false
                low = angle
            } else if rising != true, angle - low >= least {
                if rising == false { excursions += 1 }
                rising = true
                high = angle
            }
        }
        return excursions / 2
    }

    private mutating func advance(to next: Step, at time: Double) {
        step = next
        stepStart = time
    }
}

extension HingeCalibration.Step: CustomStringConvertible {
    /// The step in words, for messages (a step that timed out).
    public var description: String {
        switch self {
        case .sitStill: "sitting still"
        case .swing: "the swings and the rest after them"
        case .finished: "none"
        }
    }
}
