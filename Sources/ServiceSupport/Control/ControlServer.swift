#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSystem

/// The daemon's end of the control socket: a listening `SOCK_STREAM` socket in the runtime
/// directory, served without threads.
///
/// The daemon's loop calls ``receive()`` between waits: it accepts waiting clients and reads what
/// they sent, never blocking, and returns the complete requests. Each stays open in a mailbox
/// until the daemon calls ``reply(_:to:)``, which may be much later (a measurement takes a while).
/// Malformed requests get a `bad-request` reply without involving the daemon.
public final class ControlServer {
    /// Identifies a request waiting for its reply.
    public struct RequestID: Hashable, Sendable, CustomStringConvertible {
        let rawValue: Int
        public var description: String { "#\(rawValue)" }
    }

    /// A request taken from a client.
    public struct Received: Equatable, Sendable {
        public let id: RequestID
        public let request: ControlRequest
    }

    /// At most this many clients are connected at once. When all places are taken, the oldest
    /// client that has not sent a whole request yet is dropped to make room (so silent clients
    /// cannot lock everyone out); when every client is waiting for a reply, a new one gets
    /// `busy` and is closed.
    public static let maximumConnections = 8
    /// A request line longer than this is refused: real ones are tens of bytes.
    static let maximumRequestBytes = 4096

    /// The socket's path.
    public let path: String
    private var listener: CInt
    private var identity: (dev: dev_t, ino: ino_t)
    private var connections: [RequestID: Connection] = [:]
    private var nextID = 0

    /// Creates the socket at `path` with `mode` (group members may connect with the default 0660;
    /// the group is the daemon's own), creating its directory when missing.
    ///
    /// A socket file left by a daemon that died is replaced, but only after a connection attempt
    /// is refused: a live daemon keeps its socket.
    /// - Throws: `ControlServerError.alreadyRunning` when a daemon answers on `path`;
    ///   `.notASocket` for another kind of file; `.system` naming the failed call.
    public init(path: String, mode: mode_t = 0o660) throws(ControlServerError) {
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
        self.path = path
        try Self.makeDirectory(containing: path)
        try Self.removeStaleSocket(at: address, path: path)

        let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system(operation: "create a socket for", path: path, errno: .current) }
        do {
            identity = try Self.bindAndListen(descriptor, address: address, path: path, mode: mode)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        listener = descriptor
    }

    deinit {
        close()
    }

    /// The listening descriptor, readable when a client is waiting; for a loop that wants to
    /// `poll(2)` on it. Owned by the server: never close it.
    public var listeningDescriptor: CInt { listener }

    /// The requests waiting for a reply, oldest first.
    public var pendingRequests: [RequestID] {
        connections.filter { $0.value.isAwaitingReply }.keys.sorted { $0.rawValue < $1.rawValue }
    }

    /// Accepts waiting clients, reads what every client sent, and returns the requests completed
    /// since the last call, oldest connection first. Never blocks.
    /// - Throws: `ControlServerError.system` when accepting fails for a reason other than a
    ///   client that gave up (e.g. out of descriptors); requests already read stay buffered.
    public func receive() throws(ControlServerError) -> [Received] {
        guard listener >= 0 else { return [] }
        flushWrites()
        try acceptWaiting()
        var received: [Received] = []
        for id in connections.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let connection = connections[id] else { continue }
            switch connection.readRequest() {
            case .incomplete:
                break
            case .closed:
                connection.close()
                connections[id] = nil
            case .request(let request):
                received.append(Received(id: id, request: request))
            case .malformed(let reason):
                connection.queue(ControlReply.badRequest(reason))
            }
        }
        flushWrites()
        return received
    }

    /// Sends `reply` to the client of request `id` and closes that connection once it is written.
    /// - Returns: False when the request is unknown, already answered, or its client has gone.
    @discardableResult
    public func reply(_ reply: ControlReply, to id: RequestID) -> Bool {
        guard let connection = connections[id], connection.isAwaitingReply else { return false }
        connection.queue(reply)
        flushWrites()
        return connection.isOpen || connection.wroteEverything
    }

    /// Closes every connection and the listening socket, and removes the socket file if it is
    /// still ours. Safe to call more than once.
    public func close() {
        for connection in connections.values {
            connection.close()
        }
        connections = [:]
        guard listener >= 0 else { return }
        Glibc.close(listener)
        listener = -1
        var status = stat()
        // A daemon started after us may have replaced the file; only remove our own.
        if stat(path, &status) == 0, status.st_dev == identity.dev, status.st_ino == identity.ino {
            unlink(path)
        }
    }

    private func acceptWaiting() throws(ControlServerError) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                let error = Errno.current
                switch error.rawValue {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR, ECONNABORTED, EPROTO: continue
                default: throw .system(operation: "accept a client on", path: path, errno: error)
                }
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            do {
                try setNonBlocking(client)
            } catch {
                Glibc.close(client)
                continue
            }
            let connection = Connection(descriptor: client)
            if connections.count >= Self.maximumConnections,
                let silent = connections.filter({ $0.value.isWaitingForRequest }).keys.min(by: { $0.rawValue < $1.rawValue })
            {
                connections[silent]?.close()
                connections[silent] = nil
            }
            if connections.count >= Self.maximumConnections {
                connection.queue(ControlReply.busy("too many clients are connected"))
                connection.flush()
                connection.close()
                continue
            }
            connections[RequestID(rawValue: nextID)] = connection
            nextID += 1
        }
    }

    private func flushWrites() {
        for (id, connection) in connections where connection.hasOutput {
            connection.flush()
            if !connection.isOpen {
                connections[id] = nil
            }
        }
    }

    /// Binds, sets the mode, listens; returns the socket file's device and inode.
    private static func bindAndListen(
        _ descriptor: CInt, address: UnixSocketAddress, path: String, mode: mode_t
    ) throws(ControlServerError) -> (dev: dev_t, ino: ino_t) {
        guard address.withSockaddr({ bind(descriptor, $0, $1) }) == 0 else {
            let error = Errno.current
            // Another daemon bound it between our check and our bind.
            throw error == Errno(rawValue: EADDRINUSE) ? .alreadyRunning(path) : .system(operation: "bind", path: path, errno: error)
        }
        // No client can connect before listen(), so the mode is right before anyone can try.
        guard chmod(path, mode) == 0 else {
            let error = Errno.current
            unlink(path)
            throw .system(operation: "set the mode of", path: path, errno: error)
        }
        var status = stat()
        guard stat(path, &status) == 0, listen(descriptor, CInt(maximumConnections)) == 0 else {
            let error = Errno.current
            unlink(path)
            throw .system(operation: "listen on", path: path, errno: error)
        }
        return (status.st_dev, status.st_ino)
    }

    private static func makeDirectory(containing path: String) throws(ControlServerError) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard !directory.isEmpty else { return }
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw .system(operation: "create the directory", path: directory, errno: .current)
        }
    }

    private static func removeStaleSocket(at address: UnixSocketAddress, path: String) throws(ControlServerError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw .system(operation: "look at", path: path, errno: .current)
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
        let probe = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw .system(operation: "create a socket for", path: path, errno: .current) }
        defer { Glibc.close(probe) }
        if address.withSockaddr({ connect(probe, $0, $1) }) == 0 {
            throw .alreadyRunning(path)
        }
        switch errno {
        case ECONNREFUSED:
            // Nobody listens: the file is what a daemon that died left behind.
            if unlink(path) != 0 && errno != ENOENT {
                throw .system(operation: "remove the stale socket", path: path, errno: .current)
            }
        case EAGAIN:
            // The listen queue is full, so someone is listening.
            throw .alreadyRunning(path)
        case ENOENT:
            return
        default:
            throw .system(operation: "probe", path: path, errno: .current)
        }
    }
}
