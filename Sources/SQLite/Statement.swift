import CSQLite

/// A prepared statement. Prepared in `init`, finalized in `deinit`.
///
/// Not thread-safe: use it only inside the ``Database`` closure that handed out its ``Connection``.
public final class Statement {
    /// The SQL the statement was prepared from.
    public let sql: String
    let handle: OpaquePointer
    private let connection: OpaquePointer

    /// Prepares `sql` (a single statement).
    ///
    /// - Parameter persistent: hints SQLite that the statement will be reused
    ///   (`SQLITE_PREPARE_PERSISTENT`), as cached statements are.
    /// - Throws: ``DatabaseError`` carrying the SQL.
    /// The corresponding call is `sqlite3_prepare_v3`.
    init(connection: OpaquePointer, sql: String, persistent: Bool) throws {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(connection, sql, -1, flags, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw DatabaseError.make(code, connection: connection, sql: sql)
        }
        self.sql = sql
        self.handle = statement
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Number of result columns (0 for statements that return no rows).
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The result column names, in order.
    public var columnNames: [String] {
        (0..<Int32(columnCount)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    /// Resets the statement and binds `arguments` to its parameters, in order.
    /// The corresponding calls are `sqlite3_reset`, `sqlite3_clear_bindings`, `sqlite3_bind_*`.
    func reset(binding arguments: [any DatabaseValueConvertible]) throws {
        // A reset after a failed step returns that step's error again; it was already reported.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == arguments.count else {
            throw DatabaseError(
                resultCode: .SQLITE_RANGE,
                message: "wrong number of arguments: \(arguments.count) given, \(expected) expected",
                sql: sql)
        }
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch argument.databaseValue {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let value): code = sqlite3_bind_int64(handle, index, value)
            case .real(let value): code = sqlite3_bind_double(handle, index, value)
            case .text(let value):
                code = sqlite3_bind_text(handle, index, value, -1, romdev_sqlite_transient())
            case .blob(let bytes):
                code = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), romdev_sqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw DatabaseError.make(code, connection: connection, sql: sql) }
        }
    }

    /// Advances to the next row.
    ///
    /// - Returns: true when a row is available, false when the statement is done.
    /// The corresponding call is `sqlite3_step`.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw DatabaseError.make(code, connection: connection, sql: sql)
        }
    }

    /// The value of column `index` (from 0) of the current row.
    public func value(at index: Int) -> DatabaseValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(handle, column)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    /// Decodes column `index` (from 0) of the current row, nil when its value does not fit `T`.
    public func value<T: DatabaseValueConvertible>(at index: Int, as type: T.Type = T.self) -> T? {
        T(databaseValue: value(at: index))
    }

    /// The current row as a ``Row``.
    func row(columnNames: [String]) -> Row {
        Row(columnNames: columnNames, values: (0..<columnNames.count).map(value(at:)))
    }
}
