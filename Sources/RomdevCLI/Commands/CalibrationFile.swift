import Foundation
import Fusion

/// Where the sensor's calibration lives: `--calibration PATH`, else `calibration.json` in the care
/// store's directory (the store found by `--store`, `$ROMDEV_STORE` and the usual rules), so the
/// appliance keeps one calibration next to its one store.
struct CalibrationFile: Hashable {
    static let option = Option.value(
        "calibration", valueName: "path",
        help: "The calibration file. Default: \(fileName) in the care store's directory.")
    static let fileName = "calibration.json"

    /// The file's path.
    let path: String
    /// Whether it was named by `--calibration` (then it must exist) rather than found by default.
    let isExplicit: Bool

    /// The `--calibration` value, or the default next to the store.
    init(_ values: ParsedValues, store: StoreOptions, in context: CommandContext) throws {
        let explicit = try values.value(Self.option) { $0.isEmpty ? nil : $0 }
        self.init(explicitPath: explicit, store: store, in: context)
    }

    init(explicitPath: String?, store: StoreOptions, in context: CommandContext) {
        if let explicitPath {
            path = explicitPath
            isExplicit = true
        } else {
            let storePath = store.resolve(in: context).path
            path = ((storePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent(Self.fileName)
            isExplicit = false
        }
    }

    /// The calibration, or nil when the default file does not exist.
    /// - Throws: `CommandFailure` for an explicit file that does not exist, and for any file that
    ///   is unreadable, foreign, of another format version, damaged or implausible: a bad file is
    ///   never silently ignored.
    func load() throws -> Calibration? {
        guard isExplicit || FileManager.default.fileExists(atPath: path) else { return nil }
        let what = "could not use the calibration at \(path)"
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure(what, why: "no such file", hint: "run 'romdev calibrate', or name another file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(what, why: "it is not a readable file", hint: "check its permissions")
        }
        do {
            return try Calibration(json: data)
        } catch {
            throw CommandFailure(
                what, why: error.description, hint: "run 'romdev calibrate' again, or move the file away")
        }
    }

    /// How the calibration used was chosen, for output: "calibration.json (default)" or a path.
    func describe(_ calibration: Calibration?) -> String {
        guard calibration != nil else { return "none (no \(path); run 'romdev calibrate')" }
        return isExplicit ? path : "\(path) (default)"
    }
}
