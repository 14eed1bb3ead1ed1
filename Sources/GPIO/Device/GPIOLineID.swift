/// Which line of which chip: the chip's device path, the line's offset on it, and the line's name
/// from the device tree when it has one.
public struct GPIOLineID: Hashable, Sendable, CustomStringConvertible {
    /// The chip's device path, e.g. `/dev/gpiochip0`.
    public let chip: String
    /// The line's offset on the chip (on Raspberry Pi header chips, the BCM number).
    public let offset: UInt32
    /// The device tree's name for the line, e.g. `GPIO17`.
    public let name: String?

    public init(chip: String, offset: UInt32, name: String? = nil) {
        self.chip = chip
        self.offset = offset
        self.name = name
    }

    /// `GPIO17 (line 17 of /dev/gpiochip0)`, or `line 17 of /dev/gpiochip0` without a name.
    public var description: String {
        let place = "line \(offset) of \(chip)"
        return name.map { "\($0) (\(place))" } ?? place
    }
}
