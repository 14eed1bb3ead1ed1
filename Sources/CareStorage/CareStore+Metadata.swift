import Foundation
import SQLite

/// A key of the store's settings table.
public struct MetadataKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The patient's time zone identifier (e.g. `Europe/Paris`); defines the store's days.
    public static let timeZone = MetadataKey(rawValue: "time_zone")
    /// The measured limb, `left` or `right`.
    public static let limb = MetadataKey(rawValue: "limb")
    /// This appliance's id, a UUID minted when the store was created.
    public static let deviceID = MetadataKey(rawValue: "device_id")
    /// The care plan's first day, ISO 8601 in UTC.
    public static let planStart = MetadataKey(rawValue: "plan_start")
    /// What the plan's range-of-motion task asks for, `extension` or `arc`; absent means
    /// `extension` (plans made before there was a choice).
    public static let rangeOfMotionProtocol = MetadataKey(rawValue: "rom_protocol")
}

/// What the care plan's range-of-motion task asks the patient to do; the measurement session
/// follows the protocol of the same name.
public enum RangeOfMotionProtocol: String, CaseIterable, Hashable, Sendable {
    /// Extend the knee from the hanging shin and return.
    case `extension`
    /// Extend and return, then slide the foot back under the chair and return.
    case arc
}

/// The limb the appliance measures.
public enum Limb: String, CaseIterable, Hashable, Sendable {
    /// The left leg.
    case left
    /// The right leg.
    case right
}

/// The store's settings, decoded.
public struct StoreMetadata: Hashable, Sendable {
    /// This appliance's id, minted with the store.
    public var deviceID: UUID
    /// The patient's time zone, once the care plan is seeded.
    public var timeZone: TimeZone?
    /// The measured limb, once the care plan is seeded.
    public var limb: Limb?
    /// The first instant of the care plan's first day, once seeded.
    public var planStart: Date?
}

extension CareStore {
    /// A raw setting, nil when unset.
    public func metadata(_ key: MetadataKey) throws(CareStoreError) -> String? {
        try read { try Self.metadata(key, in: $0) }
    }

    /// Sets a raw setting. Prefer the typed operations (seeding sets the plan's settings); the
    /// time zone changes the days of every later query.
    public func setMetadata(_ value: String, for key: MetadataKey) throws(CareStoreError) {
        if key == .timeZone { _ = try Self.timeZone(identifier: value) }
        try write { try Self.setMetadata(value, for: key, in: $0) }
        if key == .timeZone, let zone = TimeZone(identifier: value) { setTimeZone(zone) }
    }

    /// The settings, decoded.
    ///
    /// - Throws: ``CareStoreError/invalidMetadata(key:value:)`` for a value that does not decode.
    public func storeMetadata() throws(CareStoreError) -> StoreMetadata {
        let values = try read { db in
            var values: [String: String] = [:]
            try db.forEachRow("SELECT key, value FROM meta") { row in
                guard let key = row.value(at: 0, as: String.self), let value = row.value(at: 1, as: String.self) else {
                    throw CareStoreError.unreadableRow(table: "meta", reason: "a key or value is not text")
                }
                values[key] = value
            }
            return values
        }
        func decoded<T>(_ key: MetadataKey, _ decode: (String) -> T?) throws(CareStoreError) -> T? {
            guard let text = values[key.rawValue] else { return nil }
            guard let value = decode(text) else { throw .invalidMetadata(key: key.rawValue, value: text) }
            return value
        }
        guard let deviceID = try decoded(.deviceID, UUID.init(uuidString:)) else {
            throw .invalidMetadata(key: MetadataKey.deviceID.rawValue, value: "")
        }
        return StoreMetadata(
            deviceID: deviceID,
            timeZone: try decoded(.timeZone, TimeZone.init(identifier:)),
            limb: try decoded(.limb, Limb.init(rawValue:)),
            planStart: try decoded(.planStart, { try? Date($0, strategy: .iso8601) }))
    }

    static func metadata(_ key: MetadataKey, in db: Connection) throws -> String? {
        try db.fetchValue("SELECT value FROM meta WHERE key = ?", [key.rawValue], as: String.self)
    }

    static func setMetadata(_ value: String, for key: MetadataKey, in db: Connection) throws {
        try db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [key.rawValue, value])
    }
}
