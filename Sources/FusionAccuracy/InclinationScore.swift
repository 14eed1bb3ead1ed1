import Fusion

/// The reference of one trial: per sample, the true "up" direction in the sensor frame (unit vector,
/// the direction an accelerometer at rest reads; nil where the optical reference is missing) and
/// whether the sample belongs to a movement phase.
///
/// ```
/// time_s,gravity_x,gravity_y,gravity_z,movement
/// 12.345000,0.0123,-0.0456,0.9988,1
/// 12.348500,,,,1
/// ```
public struct InclinationReference: Sendable, Equatable {
    public static let header = "time_s,gravity_x,gravity_y,gravity_z,movement"

    public var times: [Double]
    public var up: [Vector3?]
    public var isMovement: [Bool]

    public init(times: [Double], up: [Vector3?], isMovement: [Bool]) {
        self.times = times
        self.up = up
        self.isMovement = isMovement
    }

    /// - Throws: ``InclinationFileError`` naming the first bad line.
    public init(csv text: String) throws(InclinationFileError) {
        var times: [Double] = [], up: [Vector3?] = [], movement: [Bool] = []
        for (line, fields) in try CSVRows.rows(of: text, header: Self.header, columns: 5) {
            let time = try CSVRows.finite(fields[0], line: line, column: 1)
            let components = fields[1...3]
            if components.allSatisfy(\.isEmpty) {
                up.append(nil)
            } else {
                let x = try CSVRows.finite(fields[1], line: line, column: 2)
                let y = try CSVRows.finite(fields[2], line: line, column: 3)
                let z = try CSVRows.finite(fields[3], line: line, column: 4)
                guard let unit = Vector3(x, y, z).normalized else { throw .zeroVector(line: line) }
                up.append(unit)
            }
            switch fields[4] {
            case "0": movement.append(false)
            case "1": movement.append(true)
            default: throw .invalidNumber(line: line, column: 5, text: String(fields[4]))
            }
            times.append(time)
        }
        self.init(times: times, up: up, isMovement: movement)
    }
}

/// The gravity estimate of every sample, as `romdev replay --trace` writes it. Non-finite values
/// are kept (as NaN) so that scoring can report them instead of the file being refused.
public struct GravityTrace: Sendable, Equatable {
    public static let header = "time_s,gravity_x,gravity_y,gravity_z,angle_deg,knee_angle_deg"

    public var times: [Double]
    public var gravity: [Vector3]

    public init(times: [Double], gravity: [Vector3]) {
        self.times = times
        self.gravity = gravity
    }

    /// - Throws: ``InclinationFileError`` naming the first bad line.
    public init(csv text: String) throws(InclinationFileError) {
        var times: [Double] = [], gravity: [Vector3] = []
        for (line, fields) in try CSVRows.rows(of: text, header: Self.header, columns: 6) {
            times.append(try CSVRows.finite(fields[0], line: line, column: 1))
            let x = try CSVRows.number(fields[1], line: line, column: 2)
            let y = try CSVRows.number(fields[2], line: line, column: 3)
            let z = try CSVRows.number(fields[3], line: line, column: 4)
            gravity.append(Vector3(x, y, z))
        }
        self.init(times: times, gravity: gravity)
    }
}

/// The inclination error of one trial, as the BROAD benchmark defines it: the angle between the
/// estimated and the true vertical, i.e. the orientation error left after removing any rotation
/// about the vertical, so the unobservable heading of a 6D filter does not count. Samples count
/// when they are in a movement phase and have an optical reference; the RMSE is over those.
public struct InclinationScore: Sendable, Equatable {
    /// Root mean square inclination error over the scored samples, degrees; NaN when any scored
    /// estimate is not finite or nothing could be scored.
    public var rmseDegrees: Double
    /// The largest error over the scored samples, degrees.
    public var maximumDegrees: Double
    public var scoredSamples: Int
    /// Movement samples left out because the optical reference is missing.
    public var missingReference: Int
    /// Scored samples whose estimate is NaN or infinite (or zero, which has no direction).
    public var nonFiniteEstimates: Int

    /// - Parameter lag: scores the trace's sample `index + lag` against the reference's `index`, to
    ///   see how much of the error a time offset between the streams makes (see ``ReferenceLag``);
    ///   0, the benchmark's score, compares each sample with its own reference. Movement samples
    ///   whose shifted estimate lies outside the trace are not scored.
    /// - Throws: ``InclinationFileError/mismatch(_:)`` when the trace and the reference do not
    ///   describe the same samples.
    public init(trace: GravityTrace, reference: InclinationReference, lag: Int = 0) throws(InclinationFileError) {
        guard trace.times.count == reference.times.count else {
            throw .mismatch("the trace has \(trace.times.count) samples, the reference \(reference.times.count)")
        }
        var squared = 0.0, maximum = 0.0, scored = 0, missing = 0, nonFinite = 0
        for index in reference.times.indices where reference.isMovement[index] {
            // Both files carry times rounded to microseconds from the same recording.
            guard abs(trace.times[index] - reference.times[index]) <= 2e-6 else {
                throw .mismatch(
                    "sample \(index + 1) is at \(trace.times[index]) s in the trace but at \(reference.times[index]) s in the reference"
                )
            }
            guard let truth = reference.up[index] else {
                missing += 1
                continue
            }
            guard trace.gravity.indices.contains(index + lag) else { continue }
            scored += 1
            let estimate = trace.gravity[index + lag]
            guard estimate.x.isFinite, estimate.y.isFinite, estimate.z.isFinite, estimate.lengthSquared > 0 else {
                nonFinite += 1
                continue
            }
            let degrees = estimate.angle(to: truth) * 180 / Double.pi
            squared += degrees * degrees
            maximum = max(maximum, degrees)
        }
        let valid = scored - nonFinite
        rmseDegrees = nonFinite == 0 && valid > 0 ? (squared / Double(valid)).squareRoot() : .nan
        maximumDegrees = maximum
        scoredSamples = scored
        missingReference = missing
        nonFiniteEstimates = nonFinite
    }
}

/// Why a trace or reference file could not be read or scored. Lines and columns are 1-based.
public enum InclinationFileError: Error, Hashable, Sendable, CustomStringConvertible {
    case unexpectedHeader(expected: String, found: String)
    case wrongFieldCount(line: Int, expected: Int, found: Int)
    case invalidNumber(line: Int, column: Int, text: String)
    case zeroVector(line: Int)
    case noSamples
    case mismatch(String)

    public var description: String {
        switch self {
        case let .unexpectedHeader(expected, found):
            "line 1: expected the header '\(expected)', found '\(found.prefix(120))'"
        case let .wrongFieldCount(line, expected, found):
            "line \(line): expected \(expected) comma-separated fields, found \(found)"
        case let .invalidNumber(line, column, text):
            "line \(line), column \(column): '\(text.prefix(40))' is not a valid number"
        case let .zeroVector(line):
            "line \(line): the reference direction is a zero vector"
        case .noSamples:
            "the file has a header but no samples"
        case let .mismatch(why):
            "the trace does not match the reference: \(why)"
        }
    }
}

/// Reading the two CSV files: a fixed header, then rows of a fixed number of fields.
enum CSVRows {
    /// The rows after the header, each with its 1-based line number.
    static func rows(of text: String, header: String, columns: Int) throws(InclinationFileError) -> [(
        line: Int, fields: [Substring]
    )] {
        // Split on bytes: much faster than on Characters for files of a million lines.
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { Substring($0) }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let first = lines.first, first == header else {
            throw .unexpectedHeader(expected: header, found: String(lines.first ?? ""))
        }
        guard lines.count > 1 else { throw .noSamples }
        var rows: [(line: Int, fields: [Substring])] = []
        rows.reserveCapacity(lines.count - 1)
        for (offset, line) in lines.enumerated().dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == columns else {
                throw .wrongFieldCount(line: offset + 1, expected: columns, found: fields.count)
            }
            rows.append((offset + 1, fields))
        }
        return rows
    }

    /// A number; "nan" in any spelling C's printf gives is NaN.
    static func number(_ field: Substring, line: Int, column: Int) throws(InclinationFileError) -> Double {
        if let value = Double(field) { return value }
        if field.lowercased().hasSuffix("nan") { return .nan }
        throw .invalidNumber(line: line, column: column, text: String(field))
    }

    static func finite(_ field: Substring, line: Int, column: Int) throws(InclinationFileError) -> Double {
        guard let value = Double(field), value.isFinite else {
            throw .invalidNumber(line: line, column: column, text: String(field))
        }
        return value
    }
}
