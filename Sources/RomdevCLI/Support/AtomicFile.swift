import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that readers see either the old content or the whole new one, even across a
/// crash: a temporary file in the same directory, fsync, rename over the target, fsync of the
/// directory (rename(2) is atomic within one file system).
enum AtomicFile {
    /// Why a write failed: the operation, the path and the C error.
    struct WriteError: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var errno: Int32

        var description: String {
            "\(operation) \(path): \(String(cString: strerror(errno)))"
        }
    }

    /// Replaces `path` with `contents`.
    static func write(_ contents: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var template = Array((directory + "/." + (path as NSString).lastPathComponent + ".XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw WriteError(operation: "create a temporary file in", path: directory, errno: errno) }
        let temporary = String(cString: template)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(fd) }
            let bytes = Array(contents.utf8)
            var written = 0
            while written < bytes.count {
                let result = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw WriteError(operation: "write", path: temporary, errno: errno)
                }
                written += result
            }
            // Readable like a file created with the usual umask, not mkstemp's 0600.
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
            guard fsync(fd) == 0 else { throw WriteError(operation: "fsync", path: temporary, errno: errno) }
        }
        guard rename(temporary, path) == 0 else { throw WriteError(operation: "rename to", path: path, errno: errno) }
        renamed = true
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY)
        if directoryFD >= 0 {
            // The rename is durable only once the directory entry is on disk.
            defer { close(directoryFD) }
            guard fsync(directoryFD) == 0 else { throw WriteError(operation: "fsync", path: directory, errno: errno) }
        }
    }
}
