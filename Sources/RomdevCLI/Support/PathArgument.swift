import CareStorage
import LinuxSystem

/// A file named on the command line (`--store`, `--output`, `--trace`, `--calibration`, `--config`,
/// a recording, `--to`, `--bus`), checked
/// when parsed so that an empty value or a directory is a usage error, not a failure halfway
/// through a command.
enum PathArgument {
    /// For ``ParsedValues`` transforms: the path, when it can name a file.
    /// - Throws: an error saying why not (empty, ends with `/`, `.` or `..`).
    static func file(_ text: String) throws -> String {
        if let problem = FilePath(text).problemAsFileName { throw PathProblem(description: problem) }
        return text
    }

    /// For ``ParsedValues`` transforms: the path, when it can name a directory or device.
    /// - Throws: an error saying why not (empty, too long).
    static func any(_ text: String) throws -> String {
        if let problem = FilePath(text).problemAsPath { throw PathProblem(description: problem) }
        return text
    }

    /// For ``ParsedValues`` transforms: the `--store` path, when it can name a store file.
    /// - Throws: an error saying why not (``StorePath/problem(with:)``).
    static func store(_ text: String) throws -> String {
        if let problem = StorePath.problem(with: text) { throw PathProblem(description: problem) }
        return text
    }

    private struct PathProblem: Error, CustomStringConvertible {
        var description: String
    }
}
