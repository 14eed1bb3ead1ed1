import Care
import Foundation
import LinuxSystem
import SQLite
import Synchronization

/// The care store: versioned tasks, outcomes and settings in one SQLite file shared by the daemon
/// and any number of `romdev` processes.
///
/// The store persists and queries; the rules (which version applies, which events exist, whether
/// an outcome may be added, adherence) are the pure functions of module Care, run on the rows the
/// store reads inside one transaction. Every change is one `BEGIN IMMEDIATE` transaction: a batch
/// that fails anywhere changes nothing.
///
/// Days are those of ``calendar``: Gregorian, in the time zone recorded in the store (set when the
/// care plan is seeded), else the zone given to ``init(path:timeZone:busyTimeout:)``.
public final class CareStore: Sendable {
    /// The store file's path.
    public let path: String
    let database: Database
    private let calendarState: Mutex<Calendar>
    /// Decoded task versions by UUID (see `chains(ids:in:)`).
    let taskVersionCache = Mutex<[UUID: CareTask]>([:])

    /// Opens the store at `path` for `access`: checks the file, creates it (and its parent
    /// directories) when `access` allows, and migrates the schema when it writes.
    ///
    /// - Parameters:
    ///   - path: The store file.
    ///   - access: What the caller does with it (see ``Access``); the default creates a missing
    ///     store.
    ///   - timeZone: The zone that defines days until the store records its own.
    ///   - busyTimeout: How long a write waits for another process's write to finish.
    ///   - trace: Called with each SQL statement as it starts running, before it waits for any
    ///     lock (`SQLITE_TRACE_STMT`); for tests and diagnostics.
    /// - Throws: ``CareStoreError/storeTooNew(storeVersion:supportedVersion:)`` for a store written
    ///   by a newer romdev (it is left untouched), ``CareStoreError/notAStore(path:reason:)`` for
    ///   a file that is not a store (empty, another database, not SQLite),
    ///   ``CareStoreError/damaged(path:reason:)``, ``CareStoreError/cannotOpen(path:errno:)``, ``CareStoreError/upgradeNeeded(path:)``,
    ///   ``CareStoreError/cannotCreateDirectory(path:errno:)``, ``CareStoreError/database(_:)``.
    public init(
        path: String, access: Access = .create, timeZone: TimeZone, busyTimeout: Duration = .seconds(5),
        trace: (@Sendable (String) -> Void)? = nil
    ) throws(CareStoreError) {
        var fresh: Bool
        switch try Self.inspect(path) {
        case .missing:
            guard access == .create || access == .initialize else {
                throw .cannotOpen(path: path, errno: .noSuchFileOrDirectory)
            }
            let directory = FilePath(path).directory
            if directory != "." {
                try Self.createDirectories(directory)
            }
            try Self.createFile(path)
            fresh = true
        case .empty:
            // A store is never empty: this is a truncated store or a file made for something else.
            guard access == .initialize else { throw .notAStore(path: path, reason: .emptyFile) }
            fresh = true
        case .database:
            fresh = false
        case .unwrittenDatabase(let hasSchema):
            // Refused before SQLite opens it: for a writer that switches the file to WAL
            // journaling, a change to another program's database, and for a reader it fails on the
            // journal mode, a message that would not say what is wrong. A database without
            // tables is `romdev init`'s to adopt.
            if hasSchema { throw .notAStore(path: path, reason: .foreignDatabase) }
            guard access == .initialize else { throw .notAStore(path: path, reason: .emptyDatabase) }
            fresh = false
        }
        do {
            let configuration = Database.Configuration(busyTimeout: busyTimeout, trace: trace, readOnly: !access.writes)
            let database = try Database(path: path, configuration: configuration)
            try Self.prepare(database, path: path, access: access, fresh: fresh)
            let storedZone = try database.read { try Self.metadata(.timeZone, in: $0) }
            self.database = database
            self.path = path
            self.calendarState = Mutex(Self.gregorian(in: try storedZone.map(Self.timeZone(identifier:)) ?? timeZone))
        } catch {
            throw CareStoreError(wrapping: error, path: path)
        }
    }

    /// The schema version this romdev writes.
    public static var schemaVersion: Int { migrator.schemaVersion }

    /// The calendar that defines the store's days: Gregorian, in the store's time zone.
    public var calendar: Calendar { calendarState.withLock { $0 } }

    func setTimeZone(_ timeZone: TimeZone) {
        calendarState.withLock { $0 = Self.gregorian(in: timeZone) }
    }

    static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    static func timeZone(identifier: String) throws(CareStoreError) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else {
            throw .invalidMetadata(key: MetadataKey.timeZone.rawValue, value: identifier)
        }
        return zone
    }

    /// Runs `body` in a read transaction, mapping errors to ``CareStoreError``.
    func read<T>(_ body: (Connection) throws -> T) throws(CareStoreError) -> T {
        do { return try database.read(body) } catch { throw CareStoreError(wrapping: error, path: path) }
    }

    /// Runs `body` in a write transaction (rolled back when it throws), mapping errors to
    /// ``CareStoreError``.
    func write<T>(_ body: (Connection) throws -> T) throws(CareStoreError) -> T {
        do { return try database.write(body) } catch { throw CareStoreError(wrapping: error, path: path) }
    }

    /// Runs `PRAGMA integrity_check`: nil when the file is sound, else SQLite's first complaint.
    public func integrityProblem() throws(CareStoreError) -> String? {
        let result = try read { try $0.fetchValue("PRAGMA integrity_check", as: String.self) }
        return result == "ok" ? nil : result ?? "no answer"
    }
}
