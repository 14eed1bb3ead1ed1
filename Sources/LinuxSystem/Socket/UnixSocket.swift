#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A non-blocking `AF_UNIX` socket, and the one place that decides what `EINTR` and `EAGAIN`
/// mean for one: `EINTR` is retried; `EAGAIN` (nothing to read, no room, no client waiting)
/// is a `nil` result, never an error, so callers poll and come back. Every error names the
/// socket's path.
///
/// `SIGPIPE` is never raised: sends use `MSG_NOSIGNAL`, so a peer that left is an `EPIPE`.
/// The descriptor is closed once, by ``close()`` or `deinit`; `close` is never retried (on
/// Linux the descriptor is gone even when it reports `EINTR`).
public final class UnixSocket {
    /// `SOCK_STREAM` (connections) or `SOCK_DGRAM` (datagrams).
    public enum Kind: Sendable {
        case stream
        case datagram
    }

    /// The path named in errors: the socket's own, or for an accepted client its server's.
    public let path: String
    /// The descriptor, for ``Poll``; -1 once closed. Owned here: never close it.
    public private(set) var descriptor: CInt

    /// Opens a socket; `path` is what errors will name. The corresponding call is
    /// `socket(AF_UNIX, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)`.
    public init(_ kind: Kind, path: String) throws(UnixSocketError) {
        let type = kind == .stream ? CInt(SOCK_STREAM.rawValue) : CInt(SOCK_DGRAM.rawValue)
        let descriptor = socket(AF_UNIX, type | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw UnixSocketError(.create, path: path, errno: .current) }
        self.descriptor = descriptor
        self.path = path
    }

    private init(accepted descriptor: CInt, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close()
    }

    /// Connects to `address`.
    /// - Returns: False when the listener's queue is full (`EAGAIN`: a non-blocking `AF_UNIX`
    ///   connect reports that at once instead of waiting for room).
    /// - Throws: `UnixSocketError` with the `connect` errno (`ENOENT` and `ECONNREFUSED` when
    ///   nobody listens, `EACCES` without permission).
    public func connect(to address: UnixSocketAddress) throws(UnixSocketError) -> Bool {
        while true {
            if address.withSockaddr({ Glibc.connect(descriptor, $0, $1) }) == 0 { return true }
            let error = Errno.current
            switch error {
            case .interrupted: continue
            case .resourceTemporarilyUnavailable: return false
            default: throw UnixSocketError(.connect, path: path, errno: error)
            }
        }
    }

    /// Binds to `address`, creating the socket file for a path.
    public func bind(to address: UnixSocketAddress) throws(UnixSocketError) {
        guard address.withSockaddr({ Glibc.bind(descriptor, $0, $1) }) == 0 else {
            throw UnixSocketError(.bind, path: path, errno: .current)
        }
    }

    /// Starts accepting connections; at most `backlog` clients wait in the kernel's queue, and a
    /// client connecting to a full queue is told so at once.
    public func listen(backlog: Int) throws(UnixSocketError) {
        guard Glibc.listen(descriptor, CInt(backlog)) == 0 else {
            throw UnixSocketError(.listen, path: path, errno: .current)
        }
    }

    /// The next waiting client, non-blocking and close-on-exec, or nil when none is waiting.
    /// A client that gave up before it was taken (`ECONNABORTED`, `EPROTO`) is skipped. The
    /// corresponding calls are `accept(fd, NULL, NULL)`, then `fcntl` for `O_NONBLOCK` and
    /// `FD_CLOEXEC` (`accept4` needs `_GNU_SOURCE`, which Glibc's module is built without; no
    /// `exec` runs while the daemon serves, so the gap does not leak).
    /// - Throws: `UnixSocketError` for other errors, e.g. `EMFILE` when out of descriptors.
    public func accept() throws(UnixSocketError) -> UnixSocket? {
        while true {
            let client = Glibc.accept(descriptor, nil, nil)
            if client >= 0 {
                let socket = UnixSocket(accepted: client, path: path)
                let flags = fcntl(client, F_GETFL)
                guard flags >= 0, fcntl(client, F_SETFL, flags | O_NONBLOCK) == 0,
                    fcntl(client, F_SETFD, FD_CLOEXEC) == 0
                else {
                    throw UnixSocketError(.accept, path: path, errno: .current)
                }
                return socket
            }
            let error = Errno.current
            switch error.rawValue {
            case EAGAIN, EWOULDBLOCK: return nil
            case EINTR, ECONNABORTED, EPROTO: continue
            default: throw UnixSocketError(.accept, path: path, errno: error)
            }
        }
    }

    /// Sends what the socket takes now of `bytes` (to `address` for an unconnected datagram
    /// socket).
    /// - Returns: The number of bytes sent, or nil when there is no room now.
    /// - Throws: `UnixSocketError`; `EPIPE` or `ECONNRESET` when the peer has gone.
    public func send(_ bytes: ArraySlice<UInt8>, to address: UnixSocketAddress? = nil) throws(UnixSocketError) -> Int? {
        let flags = CInt(MSG_NOSIGNAL) | CInt(MSG_DONTWAIT)
        while true {
            let count = bytes.withUnsafeBytes { buffer in
                if let address {
                    return address.withSockaddr { sendto(descriptor, buffer.baseAddress, buffer.count, flags, $0, $1) }
                }
                return Glibc.send(descriptor, buffer.baseAddress, buffer.count, flags)
            }
            if count >= 0 { return count }
            let error = Errno.current
            switch error.rawValue {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw UnixSocketError(.send, path: path, errno: error)
            }
        }
    }

    /// Receives what is there, up to `maximumBytes`.
    /// - Returns: The bytes; an empty array when the peer closed its side; nil when nothing is
    ///   there now.
    /// - Throws: `UnixSocketError`, e.g. `ECONNRESET`.
    public func receive(maximumBytes: Int = 4096) throws(UnixSocketError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: maximumBytes)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
            if count >= 0 { return Array(buffer[..<count]) }
            let error = Errno.current
            switch error.rawValue {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw UnixSocketError(.receive, path: path, errno: error)
            }
        }
    }

    /// Waits up to `timeoutNanoseconds` for the socket to be ready for `events`.
    /// - Returns: False when the time passed (or a signal handler ran) first.
    public func wait(for events: PollEvents, timeoutNanoseconds: UInt64) throws(UnixSocketError) -> Bool {
        var entries = [PollDescriptor(descriptor, events)]
        do {
            return try Poll.wait(&entries, timeoutNanoseconds: timeoutNanoseconds) > 0
        } catch {
            throw UnixSocketError(.wait, path: path, errno: error)
        }
    }

    /// Ends our sending side (`shutdown(fd, SHUT_WR)`): the peer reads end-of-file after what was
    /// sent, while we may still read.
    public func shutdownWrite() {
        _ = shutdown(descriptor, CInt(SHUT_WR))
    }

    /// The process at the other end (`SO_PEERCRED`); 0 when unknown.
    public var peerProcessID: pid_t {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }, which Glibc's module only declares
        // under _GNU_SOURCE.
        var credentials: (pid: pid_t, uid: uid_t, gid: gid_t) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return 0 }
        return credentials.pid
    }

    /// Closes the descriptor; later calls do nothing.
    public func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }
}
