import Foundation

/// UUIDs are stored as their uppercase text form (`UUID.uuidString`), so rows read well in the
/// `sqlite3` shell and joins compare text.
extension UUID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(uuidString) }

    public init?(databaseValue: DatabaseValue) {
        guard let text = String(databaseValue: databaseValue), let uuid = UUID(uuidString: text) else { return nil }
        self = uuid
    }
}
