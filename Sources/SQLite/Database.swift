import CSQLite
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An SQLite database file, reached through one connection on a serial queue.
///
/// Every write runs in a `BEGIN IMMEDIATE` transaction, so concurrent writers (other processes
/// sharing the file) queue at BEGIN under the busy timeout rather than failing mid-transaction.
/// Reads run in deferred transactions and, in WAL mode, never wait for writers.
///
/// Each connection is opened with WAL journaling, `synchronous=FULL` (a committed write survives
/// power loss), foreign keys enforced, extended result codes, and a busy timeout.
///
/// `read` and `write` are not reentrant: calling one from inside another's closure traps.
public final class Database: @unchecked Sendable {
    // @unchecked: `connection` is only touched on `queue`, which serializes every access.

    /// Connection settings.
    public struct Configuration: Sendable {
        /// How long a statement waits for another connection's lock before failing with
        /// `SQLITE_BUSY`. Applies at `BEGIN IMMEDIATE`.
        public var busyTimeout: Duration
        /// Called with the SQL of every statement as it starts, without its arguments
        /// (`sqlite3_trace_v2`, `SQLITE_TRACE_STMT`). For tests and diagnostics.
        public var trace: (@Sendable (String) -> Void)?
        /// Open with `SQLITE_OPEN_READONLY`: the file must exist and already be in WAL mode, and
        /// nothing is written (a user without write access to the file can read it). Writes
        /// fail with `SQLITE_READONLY`.
        public var readOnly: Bool

        public init(
            busyTimeout: Duration = .seconds(5), trace: (@Sendable (String) -> Void)? = nil, readOnly: Bool = false
        ) {
            self.busyTimeout = busyTimeout
            self.trace = trace
            self.readOnly = readOnly
        }
    }

    /// The file path.
    public let path: String
    private let queue: DispatchQueue
    private let connection: Connection
    /// Keeps the trace closure alive as long as SQLite may call it.
    private let traceBox: TraceBox?

    /// Opens (creating if needed, unless read-only) the database at `path`. The parent
    /// directory must exist.
    ///
    /// Read-only, a WAL database whose directory this process cannot write, and which has no
    /// `-wal` file (every transaction is in the main file), is opened `immutable`: SQLite could
    /// not create the WAL index it needs for locking. That is the case of a copy on read-only
    /// media or in another user's directory; a writer that starts meanwhile (it needs write access
    /// to the directory) is not seen, and its pages may show as corruption, never harm the file.
    ///
    /// - Throws: ``DatabaseError`` when the file cannot be opened or configured (not a database,
    ///   no permission, WAL unavailable).
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        do {
            try self.init(path: path, configuration: configuration, immutable: false)
        } catch let error as DatabaseError
            where configuration.readOnly && error.extendedResultCode == .SQLITE_READONLY_DIRECTORY
            && access(path + "-wal", F_OK) != 0
        {
            try self.init(path: path, configuration: configuration, immutable: true)
        }
    }

    private init(path: String, configuration: Configuration, immutable: Bool) throws {
        var handle: OpaquePointer?
        // NOMUTEX: our queue already serializes access, SQLite's own mutex would be redundant.
        let access = configuration.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0)
        let name = immutable ? Self.immutableURI(path) : path
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError.make(code, connection: handle, sql: nil)
            sqlite3_close_v2(handle)
            throw error
        }
        let connection = Connection(handle: handle)
        sqlite3_extended_result_codes(handle, 1)
        let milliseconds =
            configuration.busyTimeout.components.seconds * 1000
            + configuration.busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))

        if let trace = configuration.trace {
            let box = TraceBox(trace)
            sqlite3_trace_v2(
                handle, UInt32(SQLITE_TRACE_STMT),
                { _, context, statement, _ in
                    guard let context, let statement,
                        let sql = sqlite3_sql(OpaquePointer(statement))
                    else { return 0 }
                    Unmanaged<TraceBox>.fromOpaque(context).takeUnretainedValue().body(String(cString: sql))
                    return 0
                }, Unmanaged.passUnretained(box).toOpaque())
            traceBox = box
        } else {
            traceBox = nil
        }

        // Read-only, the journal mode can only be read: a store this program wrote is in WAL mode
        // (an immutable one has no journal).
        let journalSQL = configuration.readOnly ? "PRAGMA journal_mode" : "PRAGMA journal_mode = WAL"
        let mode = try connection.fetchValue(journalSQL, as: String.self)
        guard mode?.lowercased() == "wal" || immutable else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "could not switch to WAL journaling (got \(mode ?? "nothing"))",
                sql: journalSQL)
        }
        if !configuration.readOnly { try connection.execute("PRAGMA synchronous = FULL") }
        try connection.execute("PRAGMA foreign_keys = ON")

        self.path = path
        self.connection = connection
        self.queue = DispatchQueue(label: "romdev.sqlite")
    }

    /// `file:PATH?immutable=1`, with the characters URIs give a meaning escaped
    /// (https://sqlite.org/uri.html).
    private static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        // "file:" followed by "//" would start an authority.
        if escaped.hasPrefix("//") { escaped = "/" + escaped.drop { $0 == "/" } }
        return "file:" + escaped + "?immutable=1"
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: committed when `body` returns, rolled back
    /// when it throws (the error is rethrown).
    ///
    /// - Throws: what `body` throws, or ``DatabaseError`` (`SQLITE_BUSY` once the busy timeout
    ///   has passed without getting the write lock).
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try serialized { try $0.inTransaction(.immediate, body) }
    }

    /// Runs `body` in a deferred transaction: one consistent snapshot of the database.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try serialized { try $0.inTransaction(.deferred, body) }
    }

    private func serialized<T>(_ body: (Connection) throws -> T) throws -> T {
        dispatchPrecondition(condition: .notOnQueue(queue))
        return try queue.sync { try body(connection) }
    }
}

/// Holds the trace closure at a stable address for SQLite's C callback.
private final class TraceBox {
    let body: @Sendable (String) -> Void
    init(_ body: @escaping @Sendable (String) -> Void) { self.body = body }
}
