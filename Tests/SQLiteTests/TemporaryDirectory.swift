import Foundation
import SQLite
import Synchronization

/// A fresh directory per test, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("romdev-sqlite-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Collects the SQL SQLite reports through the trace hook.
final class SQLLog: Sendable {
    private let statements = Mutex<[String]>([])

    var all: [String] { statements.withLock { $0 } }

    func clear() { statements.withLock { $0.removeAll() } }

    var configuration: Database.Configuration {
        Database.Configuration(trace: { sql in self.statements.withLock { $0.append(sql) } })
    }
}
