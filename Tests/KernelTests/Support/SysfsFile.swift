import LinuxSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed access to a sysfs or configfs file, naming it.
struct SysfsError: Error, CustomStringConvertible {
    var operation: String
    var path: String
    var errno: Errno

    var description: String {
        "cannot \(operation) \(path): \(errno)"
    }
}

/// Attribute files of sysfs and configfs, read and written in one system call each, as the kernel
/// expects (Foundation's atomic writes would create a temporary file next to them).
enum SysfsFile {
    /// The file's text without the trailing newline.
    static func read(_ path: String) throws(SysfsError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SysfsError(operation: "open", path: path, errno: .current) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw SysfsError(operation: "read", path: path, errno: .current) }
        var text = String(decoding: buffer[..<count], as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }

    static func write(_ text: String, to path: String) throws(SysfsError) {
        try write(bytes: Array(text.utf8), to: path, describing: "'\(text)'")
    }

    /// Writes `bytes` from the start of the file, in as many calls as the file takes: an attribute
    /// takes one, a debugfs upload larger than a page may take several.
    static func write(bytes: [UInt8], to path: String, describing what: String? = nil) throws(SysfsError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SysfsError(operation: "open", path: path, errno: .current) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else {
                let error = Errno.current
                close(fd)
                throw SysfsError(operation: "write \(what ?? "\(bytes.count) bytes") to", path: path, errno: error)
            }
            offset += written
        }
        // debugfs files may act on close (mpu6050-sim publishes its profile then).
        guard close(fd) == 0 else { throw SysfsError(operation: "close", path: path, errno: .current) }
    }

    /// configfs creates an item's attributes when its directory is made.
    static func makeDirectory(_ path: String) throws(SysfsError) {
        guard mkdir(path, 0o755) == 0 else {
            throw SysfsError(operation: "create", path: path, errno: .current)
        }
    }

    /// configfs items go away with `rmdir`, attributes and all (a recursive delete would fail).
    static func removeDirectory(_ path: String) throws(SysfsError) {
        guard rmdir(path) == 0 else {
            throw SysfsError(operation: "remove", path: path, errno: .current)
        }
    }

    /// The entries of a directory, without `.` and `..`.
    static func entries(_ path: String) throws(SysfsError) -> [String] {
        guard let stream = opendir(path) else {
            throw SysfsError(operation: "list", path: path, errno: .current)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
