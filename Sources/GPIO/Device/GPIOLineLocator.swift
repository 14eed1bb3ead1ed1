import LinuxSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds chips and lines among the `gpiochip*` nodes of a device directory, by label or by line
/// name, opening each chip once.
///
/// Raspberry Pi kernels renumbered the header chip (Pi 5: `gpiochip4`, later `gpiochip0`; some
/// kernels have no `gpiochip0`), so nothing here relies on a chip number.
public final class GPIOLineLocator {
    /// Opens a chip by device path.
    public typealias Opener = (String) throws(GPIOError) -> any GPIOChip

    private let directory: String
    private let open: Opener
    private var opened: [String: any GPIOChip] = [:]

    /// - Parameters:
    ///   - directory: Where the `gpiochip*` nodes are (`/dev`; a temporary directory in tests).
    ///   - open: How to open one (libgpiod by default; a simulated chip in tests).
    public init(
        directory: String = "/dev", open: @escaping Opener = { path throws(GPIOError) in try LibgpiodChip(path: path) }
    ) {
        self.directory = directory
        self.open = open
    }

    /// The paths of the `gpiochipN` nodes in the directory, in numeric order.
    /// - Throws: `GPIOError.scanDevices` when the directory cannot be read.
    public func chipPaths() throws(GPIOError) -> [String] {
        guard let stream = opendir(directory) else {
            throw .scanDevices(directory: directory, errno: .current)
        }
        defer { closedir(stream) }
        var numbered: [(Int, String)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("gpiochip"), let number = Int(name.dropFirst("gpiochip".count)),
                number >= 0
            else { continue }
            numbered.append((number, directory + "/" + name))
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The chip a selector names.
    /// - Throws: `GPIOError.openChip` for a path or for a chip that cannot be opened while
    ///   searching (a permission problem should be reported, not skipped),
    ///   `GPIOError.chipNotFound` when no chip has the label.
    public func chip(_ selector: GPIOChipSelector) throws(GPIOError) -> any GPIOChip {
        switch selector {
        case .path(let path):
            return try chip(at: path)
        case .label(let label):
            let paths = try chipPaths()
            for path in paths where try chip(at: path).info.label == label {
                return try chip(at: path)
            }
            throw .chipNotFound(label: label, searched: paths)
        }
    }

    /// Locates a line.
    /// - Parameters:
    ///   - selector: The line, by name or by offset on a chip.
    ///   - chipOverride: When set, names are looked up on this chip only (the configuration's
    ///     `gpio.chip`), instead of on every chip.
    /// - Throws: `GPIOError.lineNotFound` listing the chips searched, `.offsetOutOfRange`, and the
    ///   errors of `chip(_:)`.
    public func locate(_ selector: GPIOLineSelector, on chipOverride: GPIOChipSelector? = nil)
        throws(GPIOError) -> GPIOLineLocation
    {
        switch selector {
        case let .offset(offset, chipSelector):
            let found = try chip(chipSelector)
            guard offset < found.info.lineCount else {
                throw .offsetOutOfRange(chip: found.info.path, offset: offset, lineCount: found.info.lineCount)
            }
            return GPIOLineLocation(chip: found, offset: offset)
        case .name(let name):
            let candidates: [String]
            if let chipOverride {
                candidates = [try chip(chipOverride).info.path]
            } else {
                candidates = try chipPaths()
            }
            for path in candidates {
                let candidate = try chip(at: path)
                if let offset = try candidate.lineOffset(named: name) {
                    return GPIOLineLocation(chip: candidate, offset: offset)
                }
            }
            throw .lineNotFound(name: name, searched: candidates)
        }
    }

    private func chip(at path: String) throws(GPIOError) -> any GPIOChip {
        if let chip = opened[path] {
            return chip
        }
        let chip = try open(path)
        opened[path] = chip
        return chip
    }
}
