/// How the configuration names a chip: by device path (an installer's override) or by the driver's
/// label, which survives the chip renumbering between Raspberry Pi kernels.
public enum GPIOChipSelector: Equatable, Sendable, CustomStringConvertible {
    case path(String)
    case label(String)

    public var description: String {
        switch self {
        case .path(let path): return path
        case .label(let label): return "label '\(label)'"
        }
    }
}

/// How the configuration names a line: by its device-tree name (`GPIO17` on Raspberry Pi header
/// chips, searched on every chip) or by offset on a chip named by path or label. A bare number is
/// never enough, since chip numbers differ between boards and kernels.
public enum GPIOLineSelector: Equatable, Sendable, CustomStringConvertible {
    case name(String)
    case offset(UInt32, chip: GPIOChipSelector)

    public var description: String {
        switch self {
        case .name(let name): return name
        case let .offset(offset, chip): return "line \(offset) of \(chip)"
        }
    }
}

/// A located line: the open chip and the offset on it.
public struct GPIOLineLocation {
    public let chip: any GPIOChip
    public let offset: UInt32

    public init(chip: any GPIOChip, offset: UInt32) {
        self.chip = chip
        self.offset = offset
    }
}
