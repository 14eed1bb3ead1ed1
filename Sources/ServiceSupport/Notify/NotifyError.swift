import LinuxSystem

/// A notification that could not be delivered to the service manager.
public enum NotifyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `$NOTIFY_SOCKET` is neither an absolute path nor an `@` abstract name, or is too long.
    case invalidSocket(String)
    /// A call on the socket failed.
    case system(UnixSocketError)
    /// The datagram was cut short (the kernel sent fewer bytes than asked).
    case truncated(socket: String, sent: Int, of: Int)

    public var description: String {
        switch self {
        case .invalidSocket(let value):
            return "NOTIFY_SOCKET '\(value)' is neither an absolute path nor an abstract name starting with @"
        case .system(let error):
            return "notify socket: \(error)"
        case let .truncated(socket, sent, total):
            return "notify socket \(socket) took \(sent) of \(total) bytes"
        }
    }
}
