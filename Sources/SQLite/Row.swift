/// One result row: its values in column order, addressable by index or column name.
public struct Row: Sendable {
    /// The result's column names, shared by every row of one fetch.
    public let columnNames: [String]
    /// The values, in column order.
    public let values: [DatabaseValue]

    public init(columnNames: [String], values: [DatabaseValue]) {
        precondition(columnNames.count == values.count, "one name per value")
        self.columnNames = columnNames
        self.values = values
    }

    /// The value at `index`, counting columns from 0.
    public subscript(index: Int) -> DatabaseValue { values[index] }

    /// Decodes the column named `column`.
    ///
    /// - Throws: ``RowDecodingError`` when there is no such column or its value does not fit `T`
    ///   (a NULL in a non-optional, text in a number…).
    public func decode<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let index = columnNames.firstIndex(of: column) else {
            throw RowDecodingError(column: column, expectedType: "\(T.self)", storageClass: nil)
        }
        guard let value = T(databaseValue: values[index]) else {
            throw RowDecodingError(
                column: column, expectedType: "\(T.self)",
                storageClass: values[index].storageClassName)
        }
        return value
    }
}

/// A column that is missing or does not decode as the requested type. Names the column and the
/// storage class, never the value.
public struct RowDecodingError: Error, Sendable, CustomStringConvertible {
    public let column: String
    public let expectedType: String
    /// The storage class found (`NULL`, `INTEGER`, `REAL`, `TEXT`, `BLOB`); nil when the column is missing.
    public let storageClass: String?

    public var description: String {
        guard let storageClass else { return "no column `\(column)` in the result" }
        return "column `\(column)` holds \(storageClass), which does not decode as \(expectedType)"
    }
}

extension DatabaseValue {
    var storageClassName: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }
}
