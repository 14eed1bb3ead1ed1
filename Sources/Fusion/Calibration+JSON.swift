import Foundation

/// Why the bytes of a calibration file cannot be used.
public enum CalibrationFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not JSON, or JSON without a format version: not a romdev calibration.
    case notACalibration
    /// A calibration in a format version this romdev does not know (written by a newer one).
    case unsupportedVersion(Int)
    /// A known version, but fields are missing or of the wrong type.
    case damaged
    /// Readable, but the values are unusable (see ``Calibration/problems``).
    case implausible([String])

    public var description: String {
        switch self {
        case .notACalibration: "it is not a romdev calibration file"
        case .unsupportedVersion(let version):
            "it has format version \(version); this romdev reads versions 1 and \(Calibration.currentVersion)"
        case .damaged: "it is damaged or incomplete"
        case .implausible(let problems): problems.joined(separator: "; ")
        }
    }
}

extension Calibration: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, gyroBias, gyroMatrix, accelerometerOffset, accelerometerMatrix, mounting
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            gyroBias: try container.decode(Vector3.self, forKey: .gyroBias),
            gyroMatrix: try container.decode(Matrix3.self, forKey: .gyroMatrix),
            accelerometerOffset: try container.decode(Vector3.self, forKey: .accelerometerOffset),
            accelerometerMatrix: try container.decode(Matrix3.self, forKey: .accelerometerMatrix),
            mounting: try container.decodeIfPresent(Mounting.self, forKey: .mounting))
        version = try container.decode(Int.self, forKey: .version)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(gyroBias, forKey: .gyroBias)
        try container.encode(gyroMatrix, forKey: .gyroMatrix)
        try container.encode(accelerometerOffset, forKey: .accelerometerOffset)
        try container.encode(accelerometerMatrix, forKey: .accelerometerMatrix)
        try container.encodeIfPresent(mounting, forKey: .mounting)
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
            guard let new = try? JSONDecoder().decode(Calibration.self, from: data) else { throw .damaged }
            decoded = new
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
