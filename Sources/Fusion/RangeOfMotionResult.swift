/// The outcome of one knee range-of-motion measurement, in degrees of sagittal shank inclination
/// (see ``Mounting``: 0 = shin vertical, 90 = shin horizontal, positive toward extension).
///
/// The fields mean what ResearchKit's `ORKRangeOfMotionResult` means for the knee task (`start`,
/// `finish`, `minimum` = most flexed, `maximum` = most extended, `range` = the excursion between them),
/// without its quirks:
/// - ResearchKit replaces a running minimum of exactly 0 by any later value, so a motion that starts at
///   0 and only flexes reports a too-small range; here the minimum is the true minimum.
/// - ResearchKit folds relative angles in (90°, 180°] to (−270°, −180°], so passing 90° beyond the
///   start jumps by 360°; here angles are unwrapped and continuous.
/// - ResearchKit reads the hinge axis from the phone's UI orientation, so a sideways phone reads 0; here
///   the result does not depend on how the sensor is rotated on the shin.
/// - ResearchKit's `range` is `|maximum − minimum|`; here `maximum ≥ minimum` always, so it is
///   `maximum − minimum`.
///
/// It also carries the knee joint angles in the clinical convention (see ``KneeAngle``): with one
/// sensor, derived under the seated assumption (thigh horizontal and still); with a thigh sensor,
/// measured from both (``kneeAngleSource``), and the inclinations are then the shank's from the
/// thigh's perpendicular, what they would be with the thigh level.
///
/// Its JSON (``CodingKeys``) is the one every reader sees, `romdev measure --json`, `romdev replay
/// --json` and the control socket's reply alike: the angles as ``reported``, `units`, `protocol`
/// and the flags by name.
public struct RangeOfMotionResult: Hashable, Sendable {
    /// Inclination at the start pose.
    public var start: Double
    /// Inclination at the last sample.
    public var finish: Double
    /// The smallest inclination from the start pose on (the knee most flexed).
    public var minimum: Double
    /// The largest inclination from the start pose on (the knee most extended).
    public var maximum: Double
    /// `maximum − minimum`, never negative.
    public var range: Double { maximum - minimum }
    /// The smallest knee flexion reached, degrees: positive an extension lag, negative a
    /// hyperextension.
    public var kneeExtension: Double
    /// The largest knee flexion reached, degrees; past 90° when the foot went under the chair.
    public var kneeFlexion: Double
    /// `kneeFlexion − kneeExtension`, never negative.
    public var kneeArc: Double { kneeFlexion - kneeExtension }
    /// What the patient was guided through.
    public var measurementProtocol: MeasurementProtocol
    /// Where the knee angles come from: one sensor under the seated assumption, or both.
    public var kneeAngleSource: KneeAngleSource
    /// What may make the numbers untrustworthy.
    public var flags: QualityFlags

    /// - Parameters:
    ///   - kneeExtension, kneeFlexion: the knee angles; by default those of the seated assumption
    ///     (``KneeAngle/flexion(shankInclination:thighPitch:)`` of `maximum` and `minimum` with a
    ///     horizontal thigh).
    public init(
        start: Double, finish: Double, minimum: Double, maximum: Double,
        kneeExtension: Double? = nil, kneeFlexion: Double? = nil,
        measurementProtocol: MeasurementProtocol = .extension, kneeAngleSource: KneeAngleSource = .seatedAssumption,
        flags: QualityFlags = []
    ) {
        self.start = start
        self.finish = finish
        self.minimum = minimum
        self.maximum = maximum
        self.kneeExtension = kneeExtension ?? KneeAngle.flexion(shankInclination: maximum)
        self.kneeFlexion = kneeFlexion ?? KneeAngle.flexion(shankInclination: minimum)
        self.measurementProtocol = measurementProtocol
        self.kneeAngleSource = kneeAngleSource
        self.flags = flags
    }

    /// The result of a sequence of unwrapped angles: the first is the start, the last the finish.
    /// Returns `nil` for an empty sequence.
    public init?<Angles: Sequence<Double>>(angles: Angles, flags: QualityFlags = []) {
        var iterator = angles.makeIterator()
        guard let first = iterator.next() else { return nil }
        var minimum = first, maximum = first, last = first
        while let angle = iterator.next() {
            minimum = min(minimum, angle)
            maximum = max(maximum, angle)
            last = angle
        }
        self.init(start: first, finish: last, minimum: minimum, maximum: maximum, flags: flags)
    }
}

/// Reasons to distrust a ``RangeOfMotionResult``. An empty set means none was seen.
public struct QualityFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The leg was not still when the measurement began, so the start pose is uncertain.
    public static let movedAtStart = QualityFlags(rawValue: 1 << 0)
    /// The gyro reached its full-scale range: rotation was lost and the angles are too small.
    public static let gyroSaturated = QualityFlags(rawValue: 1 << 1)
    /// The session ended before a still start pose was established or lasted less than the minimum.
    public static let tooShort = QualityFlags(rawValue: 1 << 2)
    /// The angles are outside what a seated knee can do, or the motion was not about one hinge axis.
    public static let implausible = QualityFlags(rawValue: 1 << 3)
    /// The leg never left the start pose by the motion threshold: there was nothing to measure.
    public static let noMovement = QualityFlags(rawValue: 1 << 4)
    /// The session ended (time-out or stop) before the leg came back to the start pose.
    public static let notReturned = QualityFlags(rawValue: 1 << 5)
    /// The leg turned while it should have been still (e.g. the thigh moved), or did not come to rest
    /// after the return: start and finish are uncertain.
    public static let unsteady = QualityFlags(rawValue: 1 << 6)
    /// The knee angles' seated assumption (thigh horizontal and still, shin hanging at the start)
    /// visibly failed: the rests of the session disagree by more than
    /// ``SessionParameters/maximumRestDisagreement``, or, with a known mounting, the start pose is
    /// farther than ``SessionParameters/maximumStartInclination`` from a hanging shin. The
    /// inclinations stand; the knee angles are uncertain.
    public static let notSeated = QualityFlags(rawValue: 1 << 7)
    /// The arc protocol ended before the foot was slid back under the chair: the knee flexion is
    /// that of the extension step alone.
    public static let noFlexion = QualityFlags(rawValue: 1 << 8)
    /// Samples were missing while the leg turned (the sensor's FIFO overflowed, or the recording
    /// has a gap): the turn within the gap is unknown, so the angles between the still poses around
    /// it are uncertain.
    public static let samplesLost = QualityFlags(rawValue: 1 << 9)

    /// Each flag with its name, in the fixed order of printing and export.
    private static let named: [(QualityFlags, String)] = [
        (.movedAtStart, "moved-at-start"), (.gyroSaturated, "gyro-saturated"), (.tooShort, "too-short"),
        (.implausible, "implausible"), (.noMovement, "no-movement"), (.notReturned, "not-returned"),
        (.unsteady, "unsteady"), (.notSeated, "not-seated"), (.noFlexion, "no-flexion"),
        (.samplesLost, "samples-lost"),
    ]

    /// The flags by name, in a fixed order, for printing and export.
    public var names: [String] {
        Self.named.filter { contains($0.0) }.map(\.1)
    }

    /// The flags of `names`; nil when one of them names no flag.
    public init?(names: some Sequence<String>) {
        var flags: QualityFlags = []
        for name in names {
            guard let flag = Self.named.first(where: { $0.1 == name })?.0 else { return nil }
            flags.insert(flag)
        }
        self = flags
    }
}
