#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSystem

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
    public func send(_ request: ControlRequest, replyTimeoutNanoseconds: UInt64? = nil) throws(ControlClientError) -> ControlReply {
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
        let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system(operation: "create a socket for", path: path, errno: .current) }
        defer { close(descriptor) }
        try connect(descriptor, to: address)

        let timeout = replyTimeoutNanoseconds ?? request.defaultReplyTimeoutNanoseconds
        let deadline = MonotonicTime.nowNanoseconds &+ timeout
        try write(request.line, to: descriptor, deadline: deadline, request: request)
        let line = try readLine(from: descriptor, deadline: deadline, request: request)
        do {
            return try ControlReply(line: line)
        } catch {
            throw .malformedReply(path: path, reason: error.reason)
        }
    }

    private func connect(_ descriptor: CInt, to address: UnixSocketAddress) throws(ControlClientError) {
        let deadline = MonotonicTime.nowNanoseconds &+ connectTimeoutNanoseconds
        while true {
            if address.withSockaddr({ Glibc.connect(descriptor, $0, $1) }) == 0 { return }
            let error = Errno.current
            switch error.rawValue {
            case ENOENT, ECONNREFUSED, ENOTDIR:
                throw .noDaemon(path: path)
            case EACCES, EPERM:
                throw .permissionDenied(path: path)
            case EINTR:
                continue
            case EAGAIN:
                // A full listen queue: a non-blocking AF_UNIX connect says so at once, so retry.
                guard MonotonicTime.nowNanoseconds < deadline else { throw .busy(path: path) }
                var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
                nanosleep(&pause, nil)
            default:
                throw .system(operation: "connect to", path: path, errno: error)
            }
        }
    }

    private func write(_ bytes: [UInt8], to descriptor: CInt, deadline: UInt64, request: ControlRequest) throws(ControlClientError) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL))
            }
            if count >= 0 {
                written += count
                continue
            }
            let error = Errno.current
            switch error.rawValue {
            case EINTR:
                continue
            case EAGAIN:
                try wait(Int16(POLLOUT), on: descriptor, deadline: deadline, request: request)
            case EPIPE, ECONNRESET:
                throw .noReply(path: path, request: request.name)
            default:
                throw .system(operation: "send a request to", path: path, errno: error)
            }
        }
    }

    private func readLine(from descriptor: CInt, deadline: UInt64, request: ControlRequest) throws(ControlClientError) -> [UInt8] {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                line += buffer[..<count]
                if let newline = line.firstIndex(of: UInt8(ascii: "\n")) {
                    return Array(line[..<newline])
                }
                guard line.count <= Self.maximumReplyBytes else {
                    throw .malformedReply(path: path, reason: "longer than \(Self.maximumReplyBytes) bytes")
                }
                continue
            }
            if count == 0 { throw .noReply(path: path, request: request.name) }
            let error = Errno.current
            switch error.rawValue {
            case EINTR:
                continue
            case EAGAIN:
                try wait(Int16(POLLIN), on: descriptor, deadline: deadline, request: request)
            case ECONNRESET:
                throw .noReply(path: path, request: request.name)
            default:
                throw .system(operation: "read the reply from", path: path, errno: error)
            }
        }
    }

    private func wait(_ events: Int16, on descriptor: CInt, deadline: UInt64, request: ControlRequest) throws(ControlClientError) {
        let ready: Bool
        do {
            ready = try waitFor(events, on: descriptor, untilNanoseconds: deadline)
        } catch {
            throw .system(operation: "wait for", path: path, errno: error)
        }
        guard ready else { throw .timedOut(path: path, request: request.name) }
    }
}
