import Foundation

/// A fresh directory under the system temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "romdev-cli-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The store path inside the directory.
    var storePath: String { path + "/care.sqlite" }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
