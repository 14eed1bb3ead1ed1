import LinuxSystem

/// Why the control socket could not be set up or served, naming the path.
public enum ControlServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path does not fit an `AF_UNIX` address (108 bytes on Linux).
    case pathTooLong(String)
    /// Another daemon answers on the socket.
    case alreadyRunning(String)
    /// Something other than a socket sits at the path; it is left alone.
    case notASocket(String)
    /// A system call failed: `operation` says which, on `path`.
    case system(operation: String, path: String, errno: Errno)

    /// A failed call on the socket.
    static func system(_ error: UnixSocketError) -> ControlServerError {
        .system(operation: error.operation.rawValue, path: error.path, errno: error.errno)
    }

    public var description: String {
        switch self {
        case .pathTooLong(let path):
            return "control socket path \(path) is longer than \(UnixSocketAddress.capacity - 1) bytes"
        case .alreadyRunning(let path):
            return "another romdev daemon is answering on \(path)"
        case .notASocket(let path):
            return "\(path) exists and is not a socket; not replacing it"
        case let .system(operation, path, errno):
            return "cannot \(operation) \(path): \(errno)"
        }
    }
}
