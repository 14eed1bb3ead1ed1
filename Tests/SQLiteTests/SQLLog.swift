import SQLite
import Synchronization

/// Collects the SQL SQLite reports through the trace hook.
final class SQLLog: Sendable {
    private let statements = Mutex<[String]>([])

    var all: [String] { statements.withLock { $0 } }

    func clear() { statements.withLock { $0.removeAll() } }

    var configuration: Database.Configuration {
        Database.Configuration(trace: { sql in self.statements.withLock { $0.append(sql) } })
    }
}
