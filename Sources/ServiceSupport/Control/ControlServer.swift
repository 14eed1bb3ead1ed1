import LinuxSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The daemon's end of the control socket: a listening `SOCK_STREAM` socket in the runtime
/// directory, served without threads.
///
/// The daemon's loop waits on ``pollDescriptors`` until ``nextDeadlineNanoseconds`` and then calls
/// ``receive()``: it accepts waiting clients and reads what they sent, never blocking, and
/// returns the complete requests. Each stays open in a mailbox
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

    /// At most this many clients are connected at once. When all places are taken, the client
    /// holding the most connections loses its oldest one that has not sent a whole request
    /// during a whole turn of the daemon's loop (so one client opening idle connections cannot
    /// lock the others out, and a client is never dropped before it could send); when there is
    /// none, newcomers wait in the listen queue until a reply or a deadline frees a place.
    public static let maximumConnections = 8
    /// At most this many clients are accepted by one ``receive()``, so a flood of connections
    /// cannot keep the daemon's loop accepting (its watchdog, button and cues wait meanwhile);
    /// the rest stay in the listen queue for the next turn.
    public static let acceptsPerTurn = maximumConnections
    /// How many clients the kernel queues for us, beyond which a client is told the daemon is
    /// busy.
    static let listenBacklog = 2 * maximumConnections
    /// A request line longer than this is refused: real ones are tens of bytes.
    static let maximumRequestBytes = 4096
    /// How long a client has to send its request line, and then to take its reply and close.
    public static let defaultClientTimeoutNanoseconds: UInt64 = 2_000_000_000

    /// The socket's path.
    public let path: String
    private let listener: UnixSocket
    private var identity: (dev: dev_t, ino: ino_t)
    private var connections: [RequestID: Connection] = [:]
    /// Requests read by a call of ``receive()`` that then failed to accept, for the next call.
    private var pendingReceived: [Received] = []
    private var nextID = 0
    /// Counts the calls of ``receive()``: connections accepted in the current one are not dropped.
    private var turn = 0
    /// The turn whose accept failed (e.g. out of descriptors): until the next turn, which tries
    /// again, the listening socket is not watched, so it cannot wake the loop in a spin.
    private var acceptFailedInTurn: Int?
    private let clientTimeout: UInt64
    private let clock: () -> UInt64

    /// Creates the socket at `path` with `mode` (group members may connect with the default 0660;
    /// the group is the daemon's own), creating its directory when missing.
    ///
    /// A socket file left by a daemon that died is replaced, but only after a connection attempt
    /// is refused: a live daemon keeps its socket.
    /// - Parameters:
    ///   - clientTimeoutNanoseconds: How long a client may take to send its request line, and
    ///     then to take its reply; a client past it is disconnected at the next ``receive()``.
    ///   - clock: Monotonic nanoseconds for those deadlines; nil for `CLOCK_MONOTONIC` (tests
    ///     move a manual one).
    /// - Throws: `ControlServerError.alreadyRunning` when a daemon answers on `path`;
    ///   `.notASocket` for another kind of file; `.system` naming the failed call.
    public init(
        path: String, mode: mode_t = 0o660, clientTimeoutNanoseconds: UInt64 = defaultClientTimeoutNanoseconds,
        clock: (() -> UInt64)? = nil
    ) throws(ControlServerError) {
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
        self.path = path
        clientTimeout = clientTimeoutNanoseconds
        self.clock = clock ?? { MonotonicTime.nowNanoseconds }
        try Self.makeDirectory(containing: path)
        try Self.removeStaleSocket(at: address, path: path)

        listener = try Self.socket(path: path)
        identity = try Self.bindAndListen(listener, address: address, path: path, mode: mode)
    }

    deinit {
        close()
    }

    /// What the daemon's loop waits on: the listening socket while a client could be taken, and
    /// every client the server is reading from or writing to. A client held in the mailbox is
    /// not watched (its request is read), nor the listening socket while every place is taken for
    /// good (it would stay readable and spin the loop).
    public var pollDescriptors: [PollDescriptor] {
        guard listener.descriptor >= 0 else { return [] }
        let clients = connections.keys.sorted { $0.rawValue < $1.rawValue }.compactMap {
            connections[$0]?.pollDescriptor
        }
        let canTake =
            acceptFailedInTurn != turn
            && (connections.count < Self.maximumConnections || roomCandidate(inTurn: turn + 1) != nil)
        return (canTake ? [PollDescriptor(listener.descriptor, .readable)] : []) + clients
    }

    /// The earliest client deadline (on the server's clock), when the next ``receive()`` must
    /// run to disconnect it; nil when no client has one.
    public var nextDeadlineNanoseconds: UInt64? {
        connections.values.filter { $0.isOpen && !$0.isAwaitingReply }.map(\.deadline).min()
    }

    /// A reading of the server's clock, for ``nextDeadlineNanoseconds``.
    public var nowNanoseconds: UInt64 { clock() }

    /// The requests waiting for a reply, oldest first.
    public var pendingRequests: [RequestID] {
        connections.filter { $0.value.isAwaitingReply }.keys.sorted { $0.rawValue < $1.rawValue }
    }

    /// Disconnects clients past their deadline, accepts waiting clients, reads what every client
    /// sent, and returns the requests completed since the last call, oldest connection first.
    /// A malformed request is answered `bad-request` here. Never blocks.
    /// - Throws: `ControlServerError.system` when accepting fails for a reason other than a
    ///   client that gave up (e.g. out of descriptors); requests already read stay buffered.
    public func receive() throws(ControlServerError) -> [Received] {
        guard listener.descriptor >= 0 else { return [] }
        let now = clock()
        turn += 1
        for (id, connection) in connections where !connection.isAwaitingReply && now >= connection.deadline {
            connection.close()
            connections[id] = nil
        }
        flushWrites()
        var received: [Received] = []
        // Read before accepting: a client whose request is there is never taken for a silent one.
        for id in connections.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            read(id, at: now, into: &received)
        }
        defer { flushWrites() }
        do {
            try acceptWaiting(at: now, into: &received)
        } catch {
            acceptFailedInTurn = turn
            // The requests read stay with their connections; the next call cannot see them again.
            pendingReceived += received
            throw error
        }
        let all = pendingReceived + received
        pendingReceived = []
        return all.sorted { $0.id.rawValue < $1.id.rawValue }
    }

    /// Reads connection `id`, adding a completed request to `received`; answers a malformed one
    /// and forgets a closed one.
    private func read(_ id: RequestID, at now: UInt64, into received: inout [Received]) {
        guard let connection = connections[id] else { return }
        switch connection.readRequest() {
        case .incomplete:
            break
        case .closed:
            connection.close()
            connections[id] = nil
        case .request(let request):
            received.append(Received(id: id, request: request))
        case .malformed(let reason):
            connection.queue(ControlReply.badRequest(reason), deadline: now &+ clientTimeout)
        }
    }

    /// Sends `reply` to the client of request `id` and closes that connection once it is written.
    /// - Returns: False when the request is unknown, already answered, or its client has gone.
    @discardableResult
    public func reply(_ reply: ControlReply, to id: RequestID) -> Bool {
        guard let connection = connections[id], connection.isAwaitingReply else { return false }
        connection.queue(reply, deadline: clock() &+ clientTimeout)
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
        guard listener.descriptor >= 0 else { return }
        listener.close()
        var status = stat()
        // A daemon started after us may have replaced the file; only remove our own.
        if stat(path, &status) == 0, status.st_dev == identity.dev, status.st_ino == identity.ino {
            unlink(path)
        }
    }

    private func acceptWaiting(at now: UInt64, into received: inout [Received]) throws(ControlServerError) {
        for _ in 0..<Self.acceptsPerTurn {
            if connections.count >= Self.maximumConnections {
                // Room is made only for a client that is there. Without room, newcomers wait in
                // the listen queue, in the order they came, until a reply or a deadline frees a
                // place; a client finding the queue full reports the daemon busy.
                let waiting: Bool
                do {
                    waiting = try Poll.isReady(listener.descriptor)
                } catch {
                    throw .system(UnixSocketError(.accept, path: path, errno: error))
                }
                guard waiting, makeRoom() else { return }
            }
            let client: UnixSocket?
            do {
                client = try listener.accept()
            } catch {
                throw .system(error)
            }
            guard let client else { return }
            let id = RequestID(rawValue: nextID)
            connections[id] = Connection(socket: client, turn: turn, deadline: now &+ clientTimeout)
            nextID += 1
            read(id, at: now, into: &received)
        }
    }

    /// Frees a place: see ``roomCandidate(inTurn:)``.
    /// - Returns: False when no connection may be dropped.
    private func makeRoom() -> Bool {
        guard let victim = roomCandidate(inTurn: turn) else { return false }
        connections[victim]?.close()
        connections[victim] = nil
        return true
    }

    /// The connection to drop for a newcomer in turn `turn`: one whose reply is out, else the
    /// oldest connection that has been without a request for a whole turn, of the client holding
    /// the most connections, if it holds more than one.
    private func roomCandidate(inTurn turn: Int) -> RequestID? {
        let held = Dictionary(grouping: connections.values, by: \.peer).mapValues(\.count)
        let candidates = connections.filter { id, connection in
            connection.state == .draining
                || (connection.isWaitingForRequest && connection.turn < turn && held[connection.peer, default: 0] > 1)
        }
        let victim = candidates.min { first, second in
            let firstRank = (
                first.value.state == .draining ? 0 : 1, -held[first.value.peer, default: 0], first.key.rawValue
            )
            let secondRank = (
                second.value.state == .draining ? 0 : 1, -held[second.value.peer, default: 0], second.key.rawValue
            )
            return firstRank < secondRank
        }
        return victim?.key
    }

    private func flushWrites() {
        for (id, connection) in connections where connection.hasOutput {
            connection.flush()
            if !connection.isOpen {
                connections[id] = nil
            }
        }
    }

    private static func socket(path: String) throws(ControlServerError) -> UnixSocket {
        do {
            return try UnixSocket(.stream, path: path)
        } catch {
            throw .system(error)
        }
    }

    /// Binds, sets the mode, listens; returns the socket file's device and inode.
    private static func bindAndListen(
        _ socket: UnixSocket, address: UnixSocketAddress, path: String, mode: mode_t
    ) throws(ControlServerError) -> (dev: dev_t, ino: ino_t) {
        do {
            try socket.bind(to: address)
        } catch {
            // Another daemon bound it between our check and our bind.
            throw error.errno == Errno(rawValue: EADDRINUSE) ? .alreadyRunning(path) : .system(error)
        }
        // No client can connect before listen(), so the mode is right before anyone can try.
        guard chmod(path, mode) == 0 else {
            let error = Errno.current
            unlink(path)
            throw .system(UnixSocketError(.setMode, path: path, errno: error))
        }
        var status = stat()
        do throws(UnixSocketError) {
            guard stat(path, &status) == 0 else { throw UnixSocketError(.listen, path: path, errno: .current) }
            try socket.listen(backlog: listenBacklog)
        } catch {
            unlink(path)
            throw .system(error)
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
        let probe = try socket(path: path)
        do {
            // Connected, or a full listen queue (false): someone is listening either way.
            _ = try probe.connect(to: address)
        } catch {
            switch error.errno.rawValue {
            case ECONNREFUSED:
                // Nobody listens: the file is what a daemon that died left behind.
                if unlink(path) != 0 && errno != ENOENT {
                    throw .system(operation: "remove the stale socket", path: path, errno: .current)
                }
                return
            case ENOENT:
                return
            default:
                throw .system(operation: "probe", path: path, errno: error.errno)
            }
        }
        throw .alreadyRunning(path)
    }
}
