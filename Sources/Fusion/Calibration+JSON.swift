import Foundation

/// Why the bytes of a calibration file cannot be used.
public enum CalibrationFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not JSON, or JSON without a format version: not a romdev calibration.
    case notACalibration
    /// A calibration in a format version this romdev does not know (written by a newer one).
    case unsupportedVersion(Int)
    /// A known version, but fields are missing or of the wrong type.
    case damaged
    /// The thigh section is there but this field of it (e.g. "thigh.gyroMatrix") is malformed.
    case damagedField(String)
    /// Readable, but the values are unusable (see ``Calibration/problems``).
    case implausible([String])

    public var description: String {
        switch self {
        case .notACalibration: "it is not a romdev calibration file"
        case .unsupportedVersion(let version):
            "it has format version \(version); this romdev reads versions 1 and \(Calibration.currentVersion)"
        case .damaged: "it is damaged or incomplete"
        case .damagedField(let field): "its field \(field) is damaged or incomplete"
        case .implausible(let problems): problems.joined(separator: "; ")
        }
    }
}

extension Calibration: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, mounting, thigh
    }

    /// The shank board's correction sits at the top level of the file, as before there was a thigh
    /// board; the thigh's is the same fields inside "thigh".
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let thigh: ThighCalibration?
        do {
            thigh = try container.decodeIfPresent(ThighCalibration.self, forKey: .thigh)
        } catch let error as SectionFieldError {
            throw SectionFieldError(field: "thigh." + error.field)
        } catch {
            throw SectionFieldError(field: "thigh")
        }
        self.init(
            sensor: try SensorCorrection(from: decoder),
            mounting: try container.decodeIfPresent(Mounting.self, forKey: .mounting), thigh: thigh)
        version = try container.decode(Int.self, forKey: .version)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try sensor.encode(to: encoder)
        try container.encodeIfPresent(mounting, forKey: .mounting)
        try container.encodeIfPresent(thigh, forKey: .thigh)
    }

    /// A version 1 file: a sensitivity per axis, the reading divided by it.
    private struct VersionOne: Decodable {
        var gyroBias: Vector3
        var gyroScale: Vector3
        var accelerometerOffset: Vector3
        var accelerometerScale: Vector3
        var mounting: Mounting?

        var calibration: Calibration {
            func inverse(_ scale: Vector3) -> Matrix3 {
                Matrix3(diagonal: Vector3(1 / scale.x, 1 / scale.y, 1 / scale.z))
            }
            return Calibration(
                gyroBias: gyroBias, gyroMatrix: inverse(gyroScale), accelerometerOffset: accelerometerOffset,
                accelerometerMatrix: inverse(accelerometerScale), mounting: mounting)
        }
    }

    /// Decodes and checks the JSON of a calibration file, version 1 or 2; a foreign, newer or
    /// damaged file is an error, never silently replaced by defaults. A version 1 file becomes
    /// diagonal matrices (the inverse of its per-axis scales); saving it again writes version 2.
    public init(json data: Data) throws(CalibrationFileError) {
        struct VersionProbe: Decodable { var version: Int }
        // Swift 6.0's JSONDecoder (Debian trixie's) traps instead of throwing on a key with invalid
        // UTF-8, a raw control character or a bad escape; JSONSerialization refuses such text first.
        guard (try? JSONSerialization.jsonObject(with: data)) != nil,
            let probe = try? JSONDecoder().decode(VersionProbe.self, from: data)
        else { throw .notACalibration }
        let decoded: Calibration
        switch probe.version {
        case 1:
            guard let old = try? JSONDecoder().decode(VersionOne.self, from: data) else { throw .damaged }
            decoded = old.calibration
        case Self.currentVersion:
            do {
                decoded = try JSONDecoder().decode(Calibration.self, from: data)
            } catch let error as SectionFieldError {
                throw .damagedField(error.field)
            } catch {
                throw .damaged
            }
        default:
            throw .unsupportedVersion(probe.version)
        }
        guard decoded.problems.isEmpty else { throw .implausible(decoded.problems) }
        self = decoded
    }

    /// The JSON of a calibration file: keys sorted, indented, so files diff cleanly.
    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding plain numbers and optional nested values cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }
}

/// A field of a section of the file that is missing or of the wrong type, named by its path.
struct SectionFieldError: Error {
    var field: String
}

extension SensorCorrection: Codable {
    private enum CodingKeys: String, CodingKey {
        case gyroBias, gyroMatrix, accelerometerOffset, accelerometerMatrix
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            gyroBias: try container.decode(Vector3.self, forKey: .gyroBias),
            gyroMatrix: try container.decode(Matrix3.self, forKey: .gyroMatrix),
            accelerometerOffset: try container.decode(Vector3.self, forKey: .accelerometerOffset),
            accelerometerMatrix: try container.decode(Matrix3.self, forKey: .accelerometerMatrix))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(gyroBias, forKey: .gyroBias)
        try container.encode(gyroMatrix, forKey: .gyroMatrix)
        try container.encode(accelerometerOffset, forKey: .accelerometerOffset)
        try container.encode(accelerometerMatrix, forKey: .accelerometerMatrix)
    }
}

/// "thigh": the board's correction in the shank's fields (all four, or none before its faces were
/// calibrated) and "hingeAxes". A malformed field is a ``SectionFieldError`` naming it.
extension ThighCalibration: Codable {
    private enum CodingKeys: String, CodingKey {
        case gyroBias, gyroMatrix, accelerometerOffset, accelerometerMatrix, hingeAxes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func field<Value: Decodable>(_ key: CodingKeys, _ type: Value.Type) throws -> Value? {
            do {
                return try container.decodeIfPresent(Value.self, forKey: key)
            } catch {
                throw SectionFieldError(field: key.stringValue)
            }
        }
        let bias = try field(.gyroBias, Vector3.self), gyro = try field(.gyroMatrix, Matrix3.self)
        let offset = try field(.accelerometerOffset, Vector3.self)
        let accelerometer = try field(.accelerometerMatrix, Matrix3.self)
        let present: [(key: CodingKeys, isPresent: Bool)] = [
            (.gyroBias, bias != nil), (.gyroMatrix, gyro != nil), (.accelerometerOffset, offset != nil),
            (.accelerometerMatrix, accelerometer != nil),
        ]
        if let bias, let gyro, let offset, let accelerometer {
            sensor = SensorCorrection(
                gyroBias: bias, gyroMatrix: gyro, accelerometerOffset: offset, accelerometerMatrix: accelerometer)
        } else if present.contains(where: \.isPresent), let missing = present.first(where: { !$0.isPresent }) {
            // Some of the board's fields but not all: a correction cut short.
            throw SectionFieldError(field: missing.key.stringValue)
        } else {
            sensor = nil
        }
        hingeAxes = try field(.hingeAxes, HingeAxes.self)
    }

    public func encode(to encoder: any Encoder) throws {
        try sensor?.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(hingeAxes, forKey: .hingeAxes)
    }
}
