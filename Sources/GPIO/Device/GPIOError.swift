import LinuxSystem

/// A failure at the GPIO or PWM boundary, naming the chip, line or sysfs file and the errno.
///
/// Printed as one line for logs and `Error:` messages, e.g.
/// `cannot request GPIO17 (line 17 of /dev/gpiochip0) as input: Device or resource busy (EBUSY)`.
public enum GPIOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An operation on a requested line.
    public enum Operation: String, Sendable {
        case requestInput = "request"
        case requestOutput = "request as output"
        case readValue = "read the level of"
        case setValue = "set the level of"
        case waitForEdge = "wait for an edge on"
        case readEdge = "read an edge event from"
    }

    /// `gpiod_chip_open` failed (missing device node, no permission, not a GPIO chip).
    case openChip(path: String, errno: Errno)
    /// Listing the device directory for `gpiochip*` nodes failed.
    case scanDevices(directory: String, errno: Errno)
    /// Reading a chip's name, label and line count failed.
    case describeChip(path: String, errno: Errno)
    /// No chip in `searched` (paths) carries `label`.
    case chipNotFound(label: String, searched: [String])
    /// No chip in `searched` (paths) names a line `name`.
    case lineNotFound(name: String, searched: [String])
    /// The configuration named line `offset` of a chip with only `lineCount` lines.
    case offsetOutOfRange(chip: String, offset: UInt32, lineCount: UInt32)
    /// A request or an I/O call on a line failed.
    case line(Operation, GPIOLineID, errno: Errno)
    /// A write to a sysfs PWM file failed (`path` is the file written).
    case pwm(path: String, errno: Errno)
    /// The PWM channel directory did not appear after exporting the channel.
    case pwmChannelMissing(path: String)
    /// A button timing outside the supported range (milliseconds).
    case buttonTiming(name: String, milliseconds: Int, allowed: ClosedRange<Int>)

    public var description: String {
        switch self {
        case let .openChip(path, errno):
            return "cannot open GPIO chip \(path): \(errno)"
        case let .scanDevices(directory, errno):
            return "cannot list GPIO chips in \(directory): \(errno)"
        case let .describeChip(path, errno):
            return "cannot read the chip information of \(path): \(errno)"
        case let .chipNotFound(label, searched):
            return "no GPIO chip labelled '\(label)' among \(Self.list(searched))"
        case let .lineNotFound(name, searched):
            return "no GPIO line named '\(name)' on \(Self.list(searched))"
        case let .offsetOutOfRange(chip, offset, lineCount):
            return "GPIO chip \(chip) has \(lineCount) lines, so it has no line \(offset)"
        case let .line(operation, line, errno):
            let suffix = operation == .requestInput ? " as input" : ""
            return "cannot \(operation.rawValue) \(line)\(suffix): \(errno)"
        case let .pwm(path, errno):
            return "cannot write PWM file \(path): \(errno)"
        case let .pwmChannelMissing(path):
            return "PWM channel \(path) did not appear after export (is the pwm overlay enabled?)"
        case let .buttonTiming(name, milliseconds, allowed):
            return "\(name) of \(milliseconds) ms is outside \(allowed.lowerBound)–\(allowed.upperBound) ms"
        }
    }

    private static func list(_ paths: [String]) -> String {
        paths.isEmpty ? "no GPIO chips" : paths.joined(separator: ", ")
    }
}
