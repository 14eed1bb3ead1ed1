/// A value as SQLite stores it: one of its five storage classes.
public enum DatabaseValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift type that converts to and from a ``DatabaseValue``.
public protocol DatabaseValueConvertible {
    /// The value to bind.
    var databaseValue: DatabaseValue { get }
    /// Decodes a column value; nil when the storage class does not fit the type.
    init?(databaseValue: DatabaseValue)
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
    public init?(databaseValue: DatabaseValue) { self = databaseValue }
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
    public init?(databaseValue: DatabaseValue) {
        guard case .integer(let value) = databaseValue else { return nil }
        self = value
    }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public init?(databaseValue: DatabaseValue) {
        guard case .integer(let value) = databaseValue, let int = Int(exactly: value) else { return nil }
        self = int
    }
}

extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(self) }
    /// Integers are accepted too: SQLite stores a REAL column value that is integral as an integer
    /// when the column has no REAL affinity.
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    public init?(databaseValue: DatabaseValue) {
        guard case .integer(let value) = databaseValue else { return nil }
        self = value != 0
    }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
    public init?(databaseValue: DatabaseValue) {
        guard case .text(let value) = databaseValue else { return nil }
        self = value
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    /// NULL decodes to `.some(nil)`; any other value must decode as `Wrapped`.
    public init?(databaseValue: DatabaseValue) {
        if databaseValue == .null {
            self = .none
        } else if let value = Wrapped(databaseValue: databaseValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}
