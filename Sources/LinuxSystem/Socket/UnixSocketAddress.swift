#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An `AF_UNIX` address: a file system path, or a name in the abstract namespace (Linux), whose
/// first byte in `sun_path` is NUL.
///
/// The address length passed to `connect`/`bind`/`sendto` is `offsetof(sockaddr_un, sun_path)`
/// plus the name's length, never `sizeof(sockaddr_un)`: an abstract name is every byte up to the
/// length, so a padded length names a different socket (systemd's own example once had this bug,
/// which only shows with abstract sockets).
public struct UnixSocketAddress: Equatable, Sendable {
    /// The bytes of `sun_path`, without a trailing NUL for a path; starting with NUL when abstract.
    public let pathBytes: [UInt8]

    /// The longest name `sun_path` holds: 108 bytes on Linux, one kept for a path's trailing NUL.
    public static let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// An address for a file system path.
    /// - Returns: nil when the path is empty, contains NUL or does not fit `sun_path`.
    public init?(path: String) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0), bytes.count < Self.capacity else { return nil }
        pathBytes = bytes
    }

    /// An address in the abstract namespace; `name` is what follows the leading NUL.
    /// - Returns: nil when the name does not fit `sun_path`.
    public init?(abstractName name: [UInt8]) {
        guard name.count + 1 <= Self.capacity else { return nil }
        pathBytes = [0] + name
    }

    /// True for an abstract name.
    public var isAbstract: Bool { pathBytes.first == 0 }

    /// Calls `body` with the address as a `sockaddr` and its exact length.
    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + pathBytes.count
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }
}
