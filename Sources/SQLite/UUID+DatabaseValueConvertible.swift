import Foundation

/// UUIDs are stored as their uppercase text form (`UUID.uuidString`), so rows read well in the
/// `sqlite3` shell and joins compare text.
extension UUID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(uuidString) }

    public init?(databaseValue: DatabaseValue) {
        guard let text = String(databaseValue: databaseValue),
            let uuid = UUID(canonicalText: text) ?? UUID(uuidString: text)
        else { return nil }
        self = uuid
    }
}

extension UUID {
    /// Parses the 36-character `8-4-4-4-12` hex form directly. Foundation's `UUID(uuidString:)`
    /// goes through `sscanf` on Linux, which made reading a long history's outcomes slow; any
    /// other spelling is left to it.
    init?(canonicalText text: String) {
        let utf8 = text.utf8
        guard utf8.count == 36 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        var index = 0
        var high: UInt8?
        var position = 0
        for character in utf8 {
            defer { position += 1 }
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            default: return nil
            }
            if let first = high {
                bytes[index] = first << 4 | nibble
                index += 1
                high = nil
            } else {
                high = nibble
            }
        }
        self.init(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
