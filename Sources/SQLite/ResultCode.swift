// The constants keep SQLite's C names, so a code reads as the documentation spells it.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

import CSQLite

/// An SQLite result code, primary or extended.
///
/// A raw-value struct rather than an enum, so a code this wrapper never named still round-trips.
/// Primary codes match their extended codes in `switch`/`catch`:
/// `catch ResultCode.SQLITE_CONSTRAINT` catches `SQLITE_CONSTRAINT_UNIQUE` too.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low 8 bits of an extended code (https://sqlite.org/rescode.html).
    public var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// The English explanation SQLite gives for the code (`sqlite3_errstr`).
    public var description: String { String(cString: sqlite3_errstr(rawValue)) }

    /// A primary pattern matches any extended code with that primary code; an extended pattern
    /// matches only itself.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        if pattern.primaryResultCode == pattern {
            return code.primaryResultCode == pattern
        }
        return code == pattern
    }

    /// Lets `catch ResultCode.SQLITE_BUSY` match a ``DatabaseError`` with that (extended) code.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }

    /// The corresponding C constant is `SQLITE_OK`.
    public static let SQLITE_OK = ResultCode(rawValue: CSQLite.SQLITE_OK)
    /// The corresponding C constant is `SQLITE_ERROR`.
    public static let SQLITE_ERROR = ResultCode(rawValue: CSQLite.SQLITE_ERROR)
    /// The corresponding C constant is `SQLITE_INTERNAL`.
    public static let SQLITE_INTERNAL = ResultCode(rawValue: CSQLite.SQLITE_INTERNAL)
    /// The corresponding C constant is `SQLITE_PERM`.
    public static let SQLITE_PERM = ResultCode(rawValue: CSQLite.SQLITE_PERM)
    /// The corresponding C constant is `SQLITE_ABORT`.
    public static let SQLITE_ABORT = ResultCode(rawValue: CSQLite.SQLITE_ABORT)
    /// The corresponding C constant is `SQLITE_BUSY`.
    public static let SQLITE_BUSY = ResultCode(rawValue: CSQLite.SQLITE_BUSY)
    /// The corresponding C constant is `SQLITE_LOCKED`.
    public static let SQLITE_LOCKED = ResultCode(rawValue: CSQLite.SQLITE_LOCKED)
    /// The corresponding C constant is `SQLITE_NOMEM`.
    public static let SQLITE_NOMEM = ResultCode(rawValue: CSQLite.SQLITE_NOMEM)
    /// The corresponding C constant is `SQLITE_READONLY`.
    public static let SQLITE_READONLY = ResultCode(rawValue: CSQLite.SQLITE_READONLY)
    /// The corresponding C constant is `SQLITE_INTERRUPT`.
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: CSQLite.SQLITE_INTERRUPT)
    /// The corresponding C constant is `SQLITE_IOERR`.
    public static let SQLITE_IOERR = ResultCode(rawValue: CSQLite.SQLITE_IOERR)
    /// The corresponding C constant is `SQLITE_CORRUPT`.
    public static let SQLITE_CORRUPT = ResultCode(rawValue: CSQLite.SQLITE_CORRUPT)
    /// The corresponding C constant is `SQLITE_FULL`.
    public static let SQLITE_FULL = ResultCode(rawValue: CSQLite.SQLITE_FULL)
    /// The corresponding C constant is `SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN)
    /// The corresponding C constant is `SQLITE_SCHEMA`.
    public static let SQLITE_SCHEMA = ResultCode(rawValue: CSQLite.SQLITE_SCHEMA)
    /// The corresponding C constant is `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT)
    /// The corresponding C constant is `SQLITE_MISMATCH`.
    public static let SQLITE_MISMATCH = ResultCode(rawValue: CSQLite.SQLITE_MISMATCH)
    /// The corresponding C constant is `SQLITE_MISUSE`.
    public static let SQLITE_MISUSE = ResultCode(rawValue: CSQLite.SQLITE_MISUSE)
    /// The corresponding C constant is `SQLITE_RANGE`.
    public static let SQLITE_RANGE = ResultCode(rawValue: CSQLite.SQLITE_RANGE)
    /// The corresponding C constant is `SQLITE_NOTADB`.
    public static let SQLITE_NOTADB = ResultCode(rawValue: CSQLite.SQLITE_NOTADB)
    /// The corresponding C constant is `SQLITE_ROW`.
    public static let SQLITE_ROW = ResultCode(rawValue: CSQLite.SQLITE_ROW)
    /// The corresponding C constant is `SQLITE_DONE`.
    public static let SQLITE_DONE = ResultCode(rawValue: CSQLite.SQLITE_DONE)

    /// The corresponding C constant is `SQLITE_CONSTRAINT_FOREIGNKEY`.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 787)
    /// The corresponding C constant is `SQLITE_CONSTRAINT_NOTNULL`.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 1299)
    /// The corresponding C constant is `SQLITE_CONSTRAINT_PRIMARYKEY`.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 1555)
    /// The corresponding C constant is `SQLITE_CONSTRAINT_UNIQUE`.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 2067)
    /// The corresponding C constant is `SQLITE_READONLY_DIRECTORY`.
    public static let SQLITE_READONLY_DIRECTORY = ResultCode(rawValue: 1544)
    /// The corresponding C constant is `SQLITE_BUSY_SNAPSHOT`.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 517)
}
