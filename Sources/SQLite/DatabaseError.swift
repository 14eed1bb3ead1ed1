import CSQLite

/// An error reported by SQLite, with the statement that caused it.
///
/// Bound arguments are deliberately absent: the store binds patient answers, and errors end up in
/// logs and on terminals.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (extended codes are always enabled on our connections).
    public let extendedResultCode: ResultCode
    /// SQLite's message (`sqlite3_errmsg`), when there is one.
    public let message: String?
    /// The SQL being prepared or run, without its arguments.
    public let sql: String?
    /// The operating system's errno behind an I/O error (`sqlite3_system_errno`), 0 when none:
    /// tells a full disk (`ENOSPC`) from a failing one when SQLite only says `SQLITE_IOERR`.
    public let systemErrno: Int32

    public init(resultCode: ResultCode, message: String? = nil, sql: String? = nil, systemErrno: Int32 = 0) {
        self.extendedResultCode = resultCode
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    /// The primary result code, e.g. `SQLITE_CONSTRAINT` for `SQLITE_CONSTRAINT_UNIQUE`.
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// `SQLite error 19: FOREIGN KEY constraint failed - while executing `INSERT …``
    public var description: String {
        var text = "SQLite error \(extendedResultCode.rawValue): \(message ?? extendedResultCode.description)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }

    /// The error for `code` on `connection`, reading the connection's last message.
    static func make(_ code: Int32, connection: OpaquePointer?, sql: String?) -> DatabaseError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        let systemErrno = connection.map { sqlite3_system_errno($0) } ?? 0
        return DatabaseError(
            resultCode: ResultCode(rawValue: code), message: message, sql: sql, systemErrno: systemErrno)
    }
}
