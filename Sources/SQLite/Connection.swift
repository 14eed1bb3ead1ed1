import CSQLite

/// One open SQLite connection, handed to the closures of ``Database/write(_:)`` and
/// ``Database/read(_:)``.
///
/// Not Sendable and not to be kept: use it only inside the closure that received it, where the
/// ``Database`` guarantees exclusive access.
public final class Connection {
    let handle: OpaquePointer
    /// Prepared statements keyed by their SQL (see ``cachedStatement(_:)``).
    private var statementCache: [String: Statement] = [:]

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        // Statements first: sqlite3_close_v2 would otherwise keep the connection as a zombie until
        // they are finalized.
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one statement to completion, discarding any rows.
    ///
    /// - Parameters:
    ///   - sql: one SQL statement with `?` placeholders.
    ///   - arguments: the values for the placeholders, in order.
    /// - Throws: ``DatabaseError`` carrying the SQL, never the arguments.
    public func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
        try withStatement(sql, arguments) { statement in
            while try statement.step() {}
        }
    }

    /// Runs a script of several statements without arguments (schema changes).
    /// The corresponding call is `sqlite3_exec`.
    public func executeScript(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError.make(code, connection: handle, sql: sql) }
    }

    /// Every row of a query.
    public func fetchAll(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> [Row] {
        try withStatement(sql, arguments) { statement in
            let names = statement.columnNames
            var rows: [Row] = []
            while try statement.step() { rows.append(statement.row(columnNames: names)) }
            return rows
        }
    }

    /// The first row of a query, nil when there is none.
    public func fetchOne(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> Row? {
        try withStatement(sql, arguments) { statement in
            try statement.step() ? statement.row(columnNames: statement.columnNames) : nil
        }
    }

    /// The first column of the first row, decoded as `T`; nil when there is no row or the value
    /// does not fit `T`.
    public func fetchValue<T: DatabaseValueConvertible>(
        _ sql: String, _ arguments: [any DatabaseValueConvertible] = [], as type: T.Type = T.self
    ) throws -> T? {
        try withStatement(sql, arguments) { statement in
            try statement.step() ? statement.value(at: 0, as: T.self) : nil
        }
    }

    /// Calls `body` for each row of a query, with the statement positioned on that row; read the
    /// columns with ``Statement/value(at:as:)``. Avoids building ``Row`` values on hot paths.
    public func forEachRow(
        _ sql: String, _ arguments: [any DatabaseValueConvertible] = [], _ body: (Statement) throws -> Void
    ) throws {
        try withStatement(sql, arguments) { statement in
            while try statement.step() { try body(statement) }
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE. The corresponding call is `sqlite3_changes`.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open. The corresponding call is `sqlite3_get_autocommit`.
    public var isInsideTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The cached statement for `sql`, prepared on first use.
    func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try Statement(connection: handle, sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// Binds, runs `body`, and evicts the statement from the cache if anything failed.
    private func withStatement<T>(
        _ sql: String, _ arguments: [any DatabaseValueConvertible], _ body: (Statement) throws -> T
    ) throws -> T {
        let statement = try cachedStatement(sql)
        do {
            try statement.reset(binding: arguments)
            let result = try body(statement)
            sqlite3_reset(statement.handle)
            return result
        } catch {
            // "If the most recent call to sqlite3_step(S) for the prepared statement S indicated
            // an error, then sqlite3_reset(S) returns an appropriate error code" (sqlite.org,
            // sqlite3_reset): after a failure the statement's state is not worth trusting, so
            // drop it and prepare afresh next time.
            statementCache[sql] = nil
            throw error
        }
    }

    // MARK: - Transactions

    /// How a transaction takes its locks (https://sqlite.org/lang_transaction.html).
    enum TransactionKind: String {
        /// Takes the write lock at BEGIN, where the busy timeout applies, so a writer waits
        /// for another instead of failing halfway through with SQLITE_BUSY.
        case immediate = "IMMEDIATE"
        /// Takes locks on first use; for reads.
        case deferred = "DEFERRED"
    }

    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it (or COMMIT) throws.
    func inTransaction<T>(_ kind: TransactionKind, _ body: (Connection) throws -> T) throws -> T {
        precondition(!isInsideTransaction, "transactions do not nest")
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        do {
            let result = try body(self)
            try execute("COMMIT TRANSACTION")
            return result
        } catch {
            // SQLite may already have rolled back by itself (e.g. after SQLITE_FULL); a second
            // ROLLBACK would fail and hide the real error.
            if isInsideTransaction { try? execute("ROLLBACK TRANSACTION") }
            throw error
        }
    }
}
