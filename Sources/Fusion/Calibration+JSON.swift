import Foundation

/// Why the bytes of a calibration file cannot be used.
public enum CalibrationFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not JSON, or JSON without a format version: not a romdev calibration.
    case notACalibration
    /// A calibration in another format version (written by a newer or older romdev).
    case unsupportedVersion(Int)
    /// The right version, but fields are missing or of the wrong type.
    case damaged
    /// Readable, but the values are unusable (see ``Calibration/problems``).
    case implausible([String])

    public var description: String {
        switch self {
        case .notACalibration: "it is not a romdev calibration file"
        case .unsupportedVersion(let version):
            "it has format version \(version); this romdev reads version \(Calibration.currentVersion)"
        case .damaged: "it is damaged or incomplete"
        case .implausible(let problems): problems.joined(separator: "; ")
        }
    }
}

extension Calibration {
    /// Decodes and checks the JSON of a calibration file; a foreign, newer or damaged file is an
    /// error, never silently replaced by defaults.
    public init(json data: Data) throws(CalibrationFileError) {
        struct VersionProbe: Decodable { var version: Int }
        guard let probe = try? JSONDecoder().decode(VersionProbe.self, from: data) else { throw .notACalibration }
        guard probe.version == Self.currentVersion else { throw .unsupportedVersion(probe.version) }
        guard let decoded = try? JSONDecoder().decode(Calibration.self, from: data) else { throw .damaged }
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
