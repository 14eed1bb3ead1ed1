/// A failed call on an `AF_UNIX` socket: which one, on which socket path, and the `errno`.
///
/// Printed `cannot connect to /run/romdev/control.sock: Connection refused (ECONNREFUSED)`.
public struct UnixSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed, as a verb phrase naming its object.
    public enum Operation: String, Sendable {
        case create = "create a socket for"
        case connect = "connect to"
        case bind = "bind"
        case listen = "listen on"
        case accept = "accept a client on"
        case send = "send to"
        case receive = "receive from"
        case wait = "wait for"
        case setMode = "set the mode of"
    }

    public let operation: Operation
    /// The socket's path (for an abstract name, `@` and the name).
    public let path: String
    public let errno: Errno

    public init(_ operation: Operation, path: String, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    public var description: String {
        "cannot \(operation.rawValue) \(path): \(errno)"
    }
}
