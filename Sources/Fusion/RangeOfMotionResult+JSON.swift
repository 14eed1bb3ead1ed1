extension RangeOfMotionResult {
    /// The angles as they are printed, sent and stored: hundredths of a degree, far finer than
    /// the measurement's accuracy, without the float noise (65.95648630778541, -7.95e-16) that
    /// would pass for precision. `range` and `kneeArc` are taken from the rounded extremes, so
    /// `range = maximum − minimum` holds exactly as reported.
    public struct ReportedAngles: Hashable, Sendable {
        public var range, start, finish, minimum, maximum: Double
        public var kneeExtension, kneeFlexion, kneeArc: Double
    }

    public var reported: ReportedAngles {
        func hundredths(_ degrees: Double) -> Double { (degrees * 100).rounded() / 100 + 0 }
        let minimum = hundredths(minimum), maximum = hundredths(maximum)
        let kneeExtension = hundredths(kneeExtension), kneeFlexion = hundredths(kneeFlexion)
        return ReportedAngles(
            range: hundredths(maximum - minimum), start: hundredths(start), finish: hundredths(finish),
            minimum: minimum, maximum: maximum, kneeExtension: kneeExtension, kneeFlexion: kneeFlexion,
            kneeArc: hundredths(kneeFlexion - kneeExtension))
    }

    /// The units of every angle.
    public static let units = "deg"
}

extension RangeOfMotionResult: Codable {
    /// The JSON keys, in the order they are printed; the angles' are the store's outcome value
    /// kinds.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case range, start, finish, minimum, maximum
        case kneeExtension = "knee_extension", kneeFlexion = "knee_flexion", kneeArc = "knee_arc"
        case kneeAngleSource = "knee_source"
        case units
        case measurementProtocol = "protocol"
        case flags
    }

    public func encode(to encoder: any Encoder) throws {
        let angles = reported
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(angles.range, forKey: .range)
        try container.encode(angles.start, forKey: .start)
        try container.encode(angles.finish, forKey: .finish)
        try container.encode(angles.minimum, forKey: .minimum)
        try container.encode(angles.maximum, forKey: .maximum)
        try container.encode(angles.kneeExtension, forKey: .kneeExtension)
        try container.encode(angles.kneeFlexion, forKey: .kneeFlexion)
        try container.encode(angles.kneeArc, forKey: .kneeArc)
        try container.encode(kneeAngleSource, forKey: .kneeAngleSource)
        try container.encode(Self.units, forKey: .units)
        try container.encode(measurementProtocol, forKey: .measurementProtocol)
        try container.encode(flags.names, forKey: .flags)
    }

    /// Reads what ``encode(to:)`` writes; `range` and `knee_arc` follow from the extremes. A result
    /// written before the knee angles had a source is a one-sensor one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let names = try container.decode([String].self, forKey: .flags)
        guard let flags = QualityFlags(names: names) else {
            throw DecodingError.dataCorruptedError(
                forKey: .flags, in: container, debugDescription: "unknown quality flag in \(names)")
        }
        self.init(
            start: try container.decode(Double.self, forKey: .start),
            finish: try container.decode(Double.self, forKey: .finish),
            minimum: try container.decode(Double.self, forKey: .minimum),
            maximum: try container.decode(Double.self, forKey: .maximum),
            kneeExtension: try container.decode(Double.self, forKey: .kneeExtension),
            kneeFlexion: try container.decode(Double.self, forKey: .kneeFlexion),
            measurementProtocol: try container.decode(MeasurementProtocol.self, forKey: .measurementProtocol),
            kneeAngleSource: try container.decodeIfPresent(KneeAngleSource.self, forKey: .kneeAngleSource)
                ?? .seatedAssumption,
            flags: flags)
    }
}
