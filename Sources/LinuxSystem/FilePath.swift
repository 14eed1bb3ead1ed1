#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A path as the kernel sees it: bytes split at `/`, nothing else. The directory and last
/// component follow POSIX `dirname(3)` and `basename(3)`, so that `b`, `.`, `./`, `a/` and `~`
/// have a directory (`.`) like any other path; `~` is a file named `~` (only a shell expands it).
public struct FilePath: Hashable, Sendable, CustomStringConvertible {
    /// The path as given.
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// The directory holding the last component, as `dirname(3)`: `.` for a path without a slash,
    /// `/` for the root and its files.
    public var directory: String {
        var bytes = Array(rawValue.utf8)
        Self.dropTrailingSlashes(&bytes)
        guard let slash = bytes.lastIndex(of: Self.slash) else {
            return bytes.isEmpty && rawValue.hasPrefix("/") ? "/" : "."
        }
        bytes.removeSubrange(slash...)
        Self.dropTrailingSlashes(&bytes)
        return bytes.isEmpty ? "/" : String(decoding: bytes, as: UTF8.self)
    }

    /// The last component, as `basename(3)`: `a` for `a/`, `/` for the root, `.` for the empty path.
    public var lastComponent: String {
        var bytes = Array(rawValue.utf8)
        Self.dropTrailingSlashes(&bytes)
        if bytes.isEmpty { return rawValue.isEmpty ? "." : "/" }
        let start = bytes.lastIndex(of: Self.slash).map { $0 + 1 } ?? 0
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// Why no file can be at this path, or nil: it is empty, holds a NUL byte, or is longer than
    /// Linux resolves (`PATH_MAX`, 4096 bytes with the terminating NUL).
    public var problemAsPath: String? {
        if rawValue.isEmpty { return "the path is empty" }
        if rawValue.utf8.contains(0) { return "it contains a NUL byte" }
        if rawValue.utf8.count >= Int(PATH_MAX) {
            return "it is longer than \(PATH_MAX - 1) bytes, the longest path Linux opens"
        }
        return nil
    }

    /// Why this path cannot name a file to create or replace, or nil when it can: a
    /// ``problemAsPath``, or it ends with `/` or its last component is `.` or `..` (each names a
    /// directory).
    public var problemAsFileName: String? {
        if let problem = problemAsPath { return problem }
        if rawValue.hasSuffix("/") || lastComponent == "." || lastComponent == ".." {
            return "it names a directory, not a file"
        }
        return nil
    }

    /// What is at the path, following a symbolic link only when `followingLinks`; nil when nothing
    /// is there. The corresponding calls are `stat(2)` and `lstat(2)`.
    /// - Throws: `Errno` other than `ENOENT` (`EACCES` on a directory above it, `ENOTDIR`, `ELOOP`).
    public func fileType(followingLinks: Bool) throws(Errno) -> FileType? {
        var status = stat()
        let result = followingLinks ? stat(rawValue, &status) : lstat(rawValue, &status)
        guard result == 0 else {
            if errno == ENOENT { return nil }
            throw Errno.current
        }
        return FileType(mode: status.st_mode)
    }

    /// Whether both paths name one existing file (the same device and inode, links followed): a
    /// file written to the one would replace the other.
    public func namesSameFile(as other: FilePath) -> Bool {
        var mine = stat(), theirs = stat()
        guard stat(rawValue, &mine) == 0, stat(other.rawValue, &theirs) == 0 else { return false }
        return mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino
    }

    /// Creates the file for writing; nothing may be at the path, not even a dangling symbolic
    /// link (`O_CREAT | O_EXCL`), so no file, device or FIFO is ever written through or replaced.
    /// The mode is 0666 less the umask. The corresponding call is `open(2)`.
    /// - Returns: The descriptor, which the caller closes.
    /// - Throws: `Errno`: ``Errno/fileExists`` when something is there.
    public func createNewFile() throws(Errno) -> CInt {
        let fd = open(rawValue, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0o666)
        guard fd >= 0 else { throw Errno.current }
        return fd
    }

    /// Reads the whole file, which must be a regular file of at most `limit` bytes. The type is
    /// checked on the open descriptor, so a directory, FIFO or device never blocks or floods the
    /// caller.
    /// - Throws: ``FileReadError``.
    public func readRegularFile(limit: Int) throws(FileReadError) -> [UInt8] {
        let fd = open(rawValue, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw .cannotOpen(Errno.current) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .cannotOpen(Errno.current) }
        let type = FileType(mode: status.st_mode)
        guard type == .regular else { throw .notRegularFile(type) }
        guard Int(status.st_size) <= limit else { throw .tooLarge(limit: limit) }
        var contents: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do {
                count = try retryingOnInterrupt { () throws(Errno) -> Int in
                    let result = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    guard result >= 0 else { throw Errno.current }
                    return result
                }
            } catch {
                throw .cannotRead(error)
            }
            if count == 0 { return contents }
            contents += buffer[..<count]
            guard contents.count <= limit else { throw .tooLarge(limit: limit) }
        }
    }

    private static let slash = UInt8(ascii: "/")

    private static func dropTrailingSlashes(_ bytes: inout [UInt8]) {
        while bytes.last == slash { bytes.removeLast() }
    }
}

/// The type of a file, from `st_mode`.
public enum FileType: Hashable, Sendable, CustomStringConvertible {
    case regular, directory, symbolicLink, characterDevice, blockDevice, fifo, socket, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        default: self = .unknown
        }
    }

    /// "a directory", "a FIFO", … for messages.
    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .unknown: "a special file"
        }
    }
}

/// Why ``FilePath/readRegularFile(limit:)`` failed.
public enum FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    case cannotOpen(Errno)
    case notRegularFile(FileType)
    case tooLarge(limit: Int)
    case cannotRead(Errno)

    public var description: String {
        switch self {
        case .cannotOpen(let errno): "\(errno)"
        case .notRegularFile(let type): "it is \(type), not a regular file"
        case .tooLarge(let limit): "it is larger than \(limit) bytes"
        case .cannotRead(let errno): "read failed: \(errno)"
        }
    }

    /// The C error, when the failure is one.
    public var errno: Errno? {
        switch self {
        case .cannotOpen(let errno), .cannotRead(let errno): errno
        case .notRegularFile, .tooLarge: nil
        }
    }
}
