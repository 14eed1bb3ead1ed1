/// A recording in the CSV format `romdev record` writes: a header line, then one sample per line.
///
/// ```
/// time_s,accel_x_g,accel_y_g,accel_z_g,gyro_x_dps,gyro_y_dps,gyro_z_dps,temp_c[,thigh_accel_x_g,
///   thigh_accel_y_g,thigh_accel_z_g,thigh_gyro_x_dps,thigh_gyro_y_dps,thigh_gyro_z_dps][,truth_angle_deg]
/// ```
/// Times are seconds on the sensor's clock and must increase strictly; the sample rate is whatever the
/// timestamps say, and may vary. A recording with a thigh sensor has its readings at the same
/// instants after the shank's. The optional last column is a reference sagittal angle (degrees),
/// written by the simulator or an optical reference.
///
/// Values a sensor of the MPU-6050 family cannot produce are refused (see ``limits``), as is a
/// recording without gravity: at rest or in a knee movement the accelerometer reads about 1 g, so
/// a mean below ``minimumMeanAccelerationG`` means the axes were zeroed or the file is not a
/// recording of this sensor.
public struct Recording: Hashable, Sendable {
    /// The header without the truth column.
    public static let header = "time_s,accel_x_g,accel_y_g,accel_z_g,gyro_x_dps,gyro_y_dps,gyro_z_dps,temp_c"
    /// The thigh sensor's columns, after the shank's.
    public static let thighColumns =
        "thigh_accel_x_g,thigh_accel_y_g,thigh_accel_z_g,thigh_gyro_x_dps,thigh_gyro_y_dps,thigh_gyro_z_dps"
    /// The name of the optional truth column.
    public static let truthColumn = "truth_angle_deg"

    /// The shank sensor's samples.
    public var samples: [InertialSample]
    /// Die temperature of each sample, °C.
    public var temperatures: [Double]
    /// The thigh sensor's samples at the same instants, when the file has its columns.
    public var thighSamples: [InertialSample]?
    /// The reference angle of each sample (degrees), when the file has the truth column.
    public var truthAngles: [Double]?

    /// The values a column may hold: time (about 31 years of a sensor clock either way),
    /// acceleration (the widest full-scale range, ±16 g), angular rate (±2000 °/s), die temperature
    /// (the register's whole span, −60…133 °C, beyond the −40…85 °C rating) and a reference angle
    /// (one turn either way).
    public static func limits(ofColumn name: Substring) -> ClosedRange<Double> {
        if name == "time_s" { return -1e9...1e9 }
        if name.contains("accel") { return -16...16 }
        if name.contains("gyro") { return -2000...2000 }
        if name == "temp_c" { return -60...133 }
        return -360...360
    }

    /// The lowest mean accelerometer magnitude a recording may have.
    public static let minimumMeanAccelerationG = 0.5

    public init(
        samples: [InertialSample], temperatures: [Double], thighSamples: [InertialSample]? = nil,
        truthAngles: [Double]? = nil
    ) {
        self.samples = samples
        self.temperatures = temperatures
        self.thighSamples = thighSamples
        self.truthAngles = truthAngles
    }

    /// The header of a recording with these columns.
    public static func header(thigh: Bool, truth: Bool) -> String {
        header + (thigh ? "," + thighColumns : "") + (truth ? "," + truthColumn : "")
    }

    /// Parses the CSV text of a recording. Line ends may be LF or CRLF; trailing empty lines are ignored.
    /// - Throws: ``RecordingError`` naming the first bad line (1-based).
    public init(csv text: String) throws(RecordingError) {
        // Split on bytes: a Character-level split would treat "\r\n" as one character.
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { Substring($0) }
        while let last = lines.last, last.isEmpty || last == "\r" { lines.removeLast() }
        guard let headerLine = lines.first else { throw .empty }
        let header = Self.trimmed(headerLine)
        guard
            let layout = [(false, false), (false, true), (true, false), (true, true)]
                .first(where: { Self.header(thigh: $0.0, truth: $0.1) == header })
        else { throw .unexpectedHeader(String(header)) }
        let (hasThigh, hasTruth) = layout
        let names = header.split(separator: ",")
        let limits = names.map(Self.limits(ofColumn:))
        let columns = names.count
        var samples: [InertialSample] = [], temperatures: [Double] = [], truth: [Double] = []
        var thigh: [InertialSample] = []
        samples.reserveCapacity(lines.count - 1)
        temperatures.reserveCapacity(lines.count - 1)
        if hasThigh { thigh.reserveCapacity(lines.count - 1) }
        if hasTruth { truth.reserveCapacity(lines.count - 1) }
        var values = [Double](repeating: 0, count: columns)
        for (offset, rawLine) in lines.enumerated().dropFirst() {
            let lineNumber = offset + 1
            let fields = Self.trimmed(rawLine).split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == columns else {
                throw .wrongFieldCount(line: lineNumber, expected: columns, found: fields.count)
            }
            for (column, field) in fields.enumerated() {
                guard let value = Double(field), value.isFinite else {
                    throw .invalidNumber(line: lineNumber, column: column + 1, text: String(field))
                }
                guard limits[column].contains(value) else {
                    throw .impossibleValue(
                        line: lineNumber, column: column + 1, name: String(names[column]), value: value)
                }
                values[column] = value
            }
            if let previous = samples.last, !(values[0] > previous.time) {
                throw .timeNotIncreasing(line: lineNumber)
            }
            samples.append(
                InertialSample(
                    time: values[0],
                    acceleration: Vector3(values[1], values[2], values[3]),
                    rotationRate: Vector3(values[4], values[5], values[6])))
            temperatures.append(values[7])
            if hasThigh {
                thigh.append(
                    InertialSample(
                        time: values[0],
                        acceleration: Vector3(values[8], values[9], values[10]),
                        rotationRate: Vector3(values[11], values[12], values[13])))
            }
            if hasTruth { truth.append(values[columns - 1]) }
        }
        guard !samples.isEmpty else { throw .noSamples }
        var magnitudeSum = 0.0
        for sample in samples { magnitudeSum += sample.acceleration.length }
        let meanMagnitude = magnitudeSum / Double(samples.count)
        guard meanMagnitude >= Self.minimumMeanAccelerationG else { throw .noGravity(meanG: meanMagnitude) }
        self.init(
            samples: samples, temperatures: temperatures, thighSamples: hasThigh ? thigh : nil,
            truthAngles: hasTruth ? truth : nil)
    }

    private static func trimmed(_ line: Substring) -> Substring {
        line.utf8.last == UInt8(ascii: "\r") ? Substring(line.utf8.dropLast()) : line
    }
}

/// Why a recording could not be read. Line and column numbers are 1-based; the header is line 1.
public enum RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case unexpectedHeader(String)
    case wrongFieldCount(line: Int, expected: Int, found: Int)
    case invalidNumber(line: Int, column: Int, text: String)
    case timeNotIncreasing(line: Int)
    /// A number beyond what the sensor can measure (``Recording/limits(ofColumn:)``), in the named column.
    case impossibleValue(line: Int, column: Int, name: String, value: Double)
    case noSamples
    /// The accelerometer's mean magnitude, far below the 1 g of gravity.
    case noGravity(meanG: Double)

    /// The line the problem is on, if it is on one.
    public var line: Int? {
        switch self {
        case .empty, .noSamples, .noGravity: nil
        case .unexpectedHeader: 1
        case let .wrongFieldCount(line, _, _), let .invalidNumber(line, _, _), let .timeNotIncreasing(line),
            let .impossibleValue(line, _, _, _):
            line
        }
    }

    public var description: String {
        switch self {
        case .empty:
            "the file is empty"
        case let .unexpectedHeader(found):
            "line 1: expected the header '\(Recording.header)' (optionally followed by the thigh's "
                + "',\(Recording.thighColumns)', then ',\(Recording.truthColumn)'), found '\(found.prefix(120))'"
        case let .wrongFieldCount(line, expected, found):
            "line \(line): expected \(expected) comma-separated fields, found \(found)"
        case let .invalidNumber(line, column, text):
            "line \(line), column \(column): '\(text.prefix(40))' is not a finite number"
        case let .timeNotIncreasing(line):
            "line \(line): time_s does not increase"
        case let .impossibleValue(line, column, name, value):
            "line \(line), column \(column): \(value) is beyond what the sensor measures "
                + "(\(name) from \(Recording.limits(ofColumn: Substring(name)).lowerBound) to "
                + "\(Recording.limits(ofColumn: Substring(name)).upperBound))"
        case .noSamples:
            "the file has a header but no samples"
        case let .noGravity(meanG):
            "the accelerometer reads \((meanG * 1000).rounded() / 1000) g on average; a sensor at rest or on a "
                + "moving knee reads about 1 g (gravity), so these samples are not from a working sensor"
        }
    }
}
