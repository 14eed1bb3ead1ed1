import CGPIOD
import LinuxSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Every libgpiod call of the package is in this file, through the CGPIOD shim, which compiles the
// same small API against libgpiod v1.6 or v2.x.

/// A GPIO chip opened through libgpiod.
///
/// Find chips with `GPIOLineLocator` (by label or line name) rather than by number: chip numbers
/// moved between Raspberry Pi kernels.
public final class LibgpiodChip: GPIOChip {
    public let info: GPIOChipInfo
    private let handle: OpaquePointer
    // Names found by `lineOffset(named:)`, so that errors about a line can say `GPIO17`.
    private var lineNames: [UInt32: String] = [:]

    /// The libgpiod version this build uses, e.g. `libgpiod 1.6.3 (v1 API)`.
    public static var libraryVersion: String {
        "libgpiod \(String(cString: romdev_gpio_library_version())) (v\(romdev_gpio_api_version()) API)"
    }

    /// Opens the chip at `path` and reads its name, label and line count.
    ///
    /// The corresponding calls are `gpiod_chip_open(path)` and `gpiod_chip_label` (v1) or
    /// `gpiod_chip_get_info` (v2).
    /// - Throws: `GPIOError.openChip` naming the path (e.g. `ENOENT`, `EACCES`, or `ENOTTY` for a file
    ///   that is no GPIO chip), `GPIOError.describeChip`.
    public init(path: String) throws(GPIOError) {
        guard let chip = romdev_gpio_chip_open(path) else {
            throw .openChip(path: path, errno: .current)
        }
        var name = [CChar](repeating: 0, count: 64)
        var label = [CChar](repeating: 0, count: 64)
        var lineCount: UInt32 = 0
        guard romdev_gpio_chip_describe(chip, &name, name.count, &label, label.count, &lineCount) == 0 else {
            let error = Errno.current
            romdev_gpio_chip_close(chip)
            throw .describeChip(path: path, errno: error)
        }
        handle = chip
        info = GPIOChipInfo(
            path: path, name: Self.string(name), label: Self.string(label), lineCount: lineCount)
    }

    deinit {
        romdev_gpio_chip_close(handle)
    }

    /// The corresponding call is `gpiod_chip_find_line` (v1) or
    /// `gpiod_chip_get_line_offset_from_name` (v2).
    public func lineOffset(named name: String) throws(GPIOError) -> UInt32? {
        let offset = romdev_gpio_chip_find_line(handle, name)
        if offset >= 0 {
            lineNames[UInt32(offset)] = name
            return UInt32(offset)
        }
        let error = Errno.current
        if error == .noSuchFileOrDirectory {
            return nil
        }
        throw .describeChip(path: info.path, errno: error)
    }

    /// The corresponding call is `gpiod_line_request_both_edges_events_flags(…, BIAS_PULL_UP)` (v1) or
    /// `gpiod_chip_request_lines` with input, pull-up and both edges (v2).
    public func requestInput(offset: UInt32, consumer: String) throws(GPIOError) -> any GPIOInputLine {
        let id = try lineID(offset)
        guard let line = romdev_gpio_request_input(handle, offset, consumer) else {
            throw .line(.requestInput, id, errno: .current)
        }
        return LibgpiodInputLine(id: id, chip: self, handle: line)
    }

    /// The corresponding call is `gpiod_line_request_output` (v1) or `gpiod_chip_request_lines`
    /// with an output value (v2).
    public func requestOutput(offset: UInt32, consumer: String, initialValue: Bool) throws(GPIOError)
        -> any GPIOOutputLine
    {
        let id = try lineID(offset)
        guard let line = romdev_gpio_request_output(handle, offset, consumer, initialValue ? 1 : 0) else {
            throw .line(.requestOutput, id, errno: .current)
        }
        return LibgpiodOutputLine(id: id, chip: self, handle: line)
    }

    private func lineID(_ offset: UInt32) throws(GPIOError) -> GPIOLineID {
        guard offset < info.lineCount else {
            throw .offsetOutOfRange(chip: info.path, offset: offset, lineCount: info.lineCount)
        }
        return GPIOLineID(chip: info.path, offset: offset, name: lineNames[offset])
    }

    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A requested line: the shim's handle, released once.
private final class LineHandle {
    let id: GPIOLineID
    // Keeps the chip open while the line is requested: v1 lines belong to their chip.
    private let chip: LibgpiodChip
    private(set) var pointer: UnsafeMutablePointer<romdev_gpio_line>?

    init(id: GPIOLineID, chip: LibgpiodChip, pointer: UnsafeMutablePointer<romdev_gpio_line>) {
        self.id = id
        self.chip = chip
        self.pointer = pointer
    }

    deinit {
        release()
    }

    func live(_ operation: GPIOError.Operation) throws(GPIOError) -> UnsafeMutablePointer<romdev_gpio_line> {
        guard let pointer else {
            throw .line(operation, id, errno: .badFileDescriptor)
        }
        return pointer
    }

    /// The corresponding call is `gpiod_line_release` (v1) or `gpiod_line_request_release` (v2).
    func release() {
        romdev_gpio_line_release(pointer)
        pointer = nil
    }
}

/// An input line requested through libgpiod, with edge events on both edges.
public final class LibgpiodInputLine: GPIOInputLine {
    private let handle: LineHandle

    fileprivate init(id: GPIOLineID, chip: LibgpiodChip, handle: UnsafeMutablePointer<romdev_gpio_line>) {
        self.handle = LineHandle(id: id, chip: chip, pointer: handle)
    }

    public var id: GPIOLineID { handle.id }

    /// The corresponding call is `gpiod_line_event_get_fd` (v1) or `gpiod_line_request_get_fd` (v2).
    public func eventFileDescriptor() throws(GPIOError) -> CInt {
        let fd = romdev_gpio_line_event_fd(try handle.live(.waitForEdge))
        guard fd >= 0 else {
            throw .line(.waitForEdge, id, errno: .current)
        }
        return fd
    }

    /// The corresponding call is `gpiod_line_get_value` (v1) or `gpiod_line_request_get_value` (v2).
    public func value() throws(GPIOError) -> Bool {
        let level = romdev_gpio_line_get_value(try handle.live(.readValue))
        guard level >= 0 else {
            throw .line(.readValue, id, errno: .current)
        }
        return level == 1
    }

    /// Reads edges while a wait of zero finds one pending.
    public func readEdges() throws(GPIOError) -> [GPIOEdge] {
        var edges: [GPIOEdge] = []
        while let edge = try waitForEdge(timeoutNanoseconds: 0) {
            edges.append(edge)
        }
        return edges
    }

    /// The corresponding calls are `gpiod_line_event_wait` then `gpiod_line_event_read` (v1), or
    /// `gpiod_line_request_wait_edge_events` then `gpiod_line_request_read_edge_events` (v2).
    public func waitForEdge(timeoutNanoseconds: UInt64) throws(GPIOError) -> GPIOEdge? {
        let line = try handle.live(.waitForEdge)
        let timeout = Int64(clamping: timeoutNanoseconds)
        switch romdev_gpio_line_wait_event(line, timeout) {
        case 0:
            return nil
        case 1:
            break
        default:
            let error = Errno.current
            // A signal ends the wait early so the caller's loop can look at its stop flag.
            if error == .interrupted {
                return nil
            }
            throw .line(.waitForEdge, id, errno: error)
        }
        var rising: CInt = 0
        var timestamp: UInt64 = 0
        guard romdev_gpio_line_read_event(line, &rising, &timestamp) == 0 else {
            throw .line(.readEdge, id, errno: .current)
        }
        return GPIOEdge(rising != 0 ? .rising : .falling, atNanoseconds: timestamp)
    }

    public func release() {
        handle.release()
    }
}

/// An output line requested through libgpiod.
public final class LibgpiodOutputLine: GPIOOutputLine {
    private let handle: LineHandle

    fileprivate init(id: GPIOLineID, chip: LibgpiodChip, handle: UnsafeMutablePointer<romdev_gpio_line>) {
        self.handle = LineHandle(id: id, chip: chip, pointer: handle)
    }

    public var id: GPIOLineID { handle.id }

    /// The corresponding call is `gpiod_line_set_value` (v1) or `gpiod_line_request_set_value` (v2).
    public func setValue(_ high: Bool) throws(GPIOError) {
        guard romdev_gpio_line_set_value(try handle.live(.setValue), high ? 1 : 0) == 0 else {
            throw .line(.setValue, id, errno: .current)
        }
    }

    public func release() {
        handle.release()
    }
}
