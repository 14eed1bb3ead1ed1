import Foundation

/// A fresh directory per test, removed when the value goes away. Short names: socket paths must
/// fit 108 bytes.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/romdev-svc-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func path(_ name: String) -> String { path + "/" + name }
}
