import Foundation
import Fusion
import LinuxSystem

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
        let explicit = try values.value(Self.option, PathArgument.file)
        try self.init(explicitPath: explicit, store: store, in: context)
    }

    init(explicitPath: String?, store: StoreOptions, in context: CommandContext) throws {
        if let explicitPath {
            path = explicitPath
            isExplicit = true
        } else {
            let directory = FilePath(try store.resolve(in: context).path).directory
            path = (directory == "/" ? "" : directory) + "/" + Self.fileName
            isExplicit = false
        }
    }

    /// The largest calibration file read; a real one is about 1 KB.
    static let sizeLimit = 1 << 20

    /// The calibration, or nil when the default file does not exist.
    /// - Throws: `CommandFailure` for an explicit file that does not exist, and for any file that
    ///   is unreadable, foreign, of another format version, damaged or implausible: a bad file is
    ///   never silently ignored.
    func load() throws -> Calibration? {
        let what = "could not use the calibration at \(path)"
        let bytes: [UInt8]
        do {
            bytes = try FilePath(path).readRegularFile(limit: Self.sizeLimit)
        } catch .cannotOpen(.noSuchFileOrDirectory) where !isExplicit {
            return nil
        } catch .cannotOpen(.noSuchFileOrDirectory) {
            throw CommandFailure(what, why: "no such file", hint: "run 'romdev calibrate', or name another file")
        } catch {
            throw CommandFailure(what, why: error.description)
        }
        do {
            return try Calibration(json: Data(bytes))
        } catch {
            throw CommandFailure(
                what, why: error.description, hint: "run 'romdev calibrate' again, or move the file away")
        }
    }

    /// Replaces the file with `calibration`: readers see the old file or the whole new one.
    func save(_ calibration: Calibration) throws(AtomicFile.WriteError) {
        try AtomicFile.write(String(decoding: calibration.json(), as: UTF8.self) + "\n", to: path)
    }

    /// How the calibration used was chosen, for output: "calibration.json (default)" or a path.
    func describe(_ calibration: Calibration?) -> String {
        guard calibration != nil else { return "none (no \(path); run 'romdev calibrate')" }
        return isExplicit ? path : "\(path) (default)"
    }
}
