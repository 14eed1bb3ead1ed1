import Foundation

/// Dates are stored as REAL seconds since 1970-01-01 00:00:00 UTC (readable with SQLite's
/// `datetime(x, 'unixepoch')`). Whole seconds and milliseconds round-trip exactly; the last bit
/// of a sub-microsecond fraction may not.
extension Date: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(timeIntervalSince1970) }

    public init?(databaseValue: DatabaseValue) {
        guard let seconds = Double(databaseValue: databaseValue) else { return nil }
        self.init(timeIntervalSince1970: seconds)
    }
}
