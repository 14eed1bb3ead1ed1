import LinuxSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The command line's end of the control socket: one request, one reply, one connection.
public struct ControlClient: Sendable {
    /// The socket's path.
    public let path: String
    /// How long to keep trying while the daemon's queue of clients is full, in nanoseconds.
    public var connectTimeoutNanoseconds: UInt64

    /// A reply longer than this is refused rather than buffered without end.
    static let maximumReplyBytes = 1 << 20

    /// A client for the socket at `path`.
    public init(path: String, connectTimeoutNanoseconds: UInt64 = 2_000_000_000) {
        self.path = path
        self.connectTimeoutNanoseconds = connectTimeoutNanoseconds
    }

    /// Sends `request` and waits for the reply.
    ///
    /// - Parameter replyTimeoutNanoseconds: How long to wait for the reply after connecting;
    ///   the request's ``ControlRequest/defaultReplyTimeoutNanoseconds`` when nil.
    /// - Returns: The reply, whatever its status (`busy` and `failed` included).
    /// - Throws: `ControlClientError`; ``ControlClientError/isNoDaemon`` when nobody listens.
    public func send(_ request: ControlRequest, replyTimeoutNanoseconds: UInt64? = nil) throws(ControlClientError)
        -> ControlReply
    {
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
        let socket: UnixSocket
        do {
            socket = try UnixSocket(.stream, path: path)
        } catch {
            throw .system(error)
        }
        try connect(socket, to: address)

        let timeout = replyTimeoutNanoseconds ?? request.defaultReplyTimeoutNanoseconds
        let deadline = MonotonicTime.nowNanoseconds &+ timeout
        try write(request.line, to: socket, deadline: deadline, request: request)
        let line = try readLine(from: socket, deadline: deadline, request: request)
        do {
            return try ControlReply(line: line)
        } catch {
            throw .malformedReply(path: path, reason: error.reason)
        }
    }

    private func connect(_ socket: UnixSocket, to address: UnixSocketAddress) throws(ControlClientError) {
        let deadline = MonotonicTime.nowNanoseconds &+ connectTimeoutNanoseconds
        while true {
            let connected: Bool
            do {
                connected = try socket.connect(to: address)
            } catch {
                switch error.errno.rawValue {
                case ENOENT, ECONNREFUSED, ENOTDIR: throw .noDaemon(path: path)
                case EACCES, EPERM: throw .permissionDenied(path: path)
                default: throw .system(error)
                }
            }
            if connected { return }
            // A full listen queue frees up as the daemon serves; try again until the deadline.
            guard MonotonicTime.nowNanoseconds < deadline else { throw .busy(path: path) }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
        }
    }

    private func write(_ bytes: [UInt8], to socket: UnixSocket, deadline: UInt64, request: ControlRequest)
        throws(ControlClientError)
    {
        var written = 0
        while written < bytes.count {
            let count: Int?
            do {
                count = try socket.send(bytes[written...])
            } catch {
                if error.errno.rawValue == EPIPE || error.errno.rawValue == ECONNRESET {
                    throw .noReply(path: path, request: request.name)
                }
                throw .system(error)
            }
            if let count {
                written += count
            } else {
                try wait(.writable, on: socket, deadline: deadline, request: request)
            }
        }
    }

    private func readLine(from socket: UnixSocket, deadline: UInt64, request: ControlRequest) throws(ControlClientError)
        -> [UInt8]
    {
        var line: [UInt8] = []
        while true {
            let bytes: [UInt8]?
            do {
                bytes = try socket.receive()
            } catch {
                if error.errno.rawValue == ECONNRESET { throw .noReply(path: path, request: request.name) }
                throw .system(error)
            }
            guard let bytes else {
                try wait(.readable, on: socket, deadline: deadline, request: request)
                continue
            }
            if bytes.isEmpty { throw .noReply(path: path, request: request.name) }
            line += bytes
            if let newline = line.firstIndex(of: UInt8(ascii: "\n")) {
                return Array(line[..<newline])
            }
            guard line.count <= Self.maximumReplyBytes else {
                throw .malformedReply(path: path, reason: "longer than \(Self.maximumReplyBytes) bytes")
            }
        }
    }

    private func wait(_ events: PollEvents, on socket: UnixSocket, deadline: UInt64, request: ControlRequest)
        throws(ControlClientError)
    {
        while true {
            let now = MonotonicTime.nowNanoseconds
            guard now < deadline else { throw .timedOut(path: path, request: request.name) }
            do {
                if try socket.wait(for: events, timeoutNanoseconds: deadline - now) { return }
            } catch {
                throw .system(error)
            }
        }
    }
}
