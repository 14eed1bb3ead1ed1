import LinuxSystem

/// Why a request to the daemon got no reply. ``isNoDaemon`` tells a caller that it may use the
/// hardware itself; every other case means a daemon exists but could not be asked.
public enum ControlClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No socket file, or one that nobody listens on (left by a daemon that died).
    case noDaemon(path: String)
    /// The socket (or its directory) is not open to this user.
    case permissionDenied(path: String)
    /// The daemon's queue of clients stayed full for the whole connect time-out.
    case busy(path: String)
    /// No reply to `request` within the time-out.
    case timedOut(path: String, request: String)
    /// The daemon closed the connection without replying (it stopped or crashed).
    case noReply(path: String, request: String)
    /// The reply was not a valid reply line.
    case malformedReply(path: String, reason: String)
    /// The path does not fit an `AF_UNIX` address.
    case pathTooLong(String)
    /// A call on the socket failed.
    case system(UnixSocketError)

    /// True when no daemon runs, so the caller may open the hardware itself.
    public var isNoDaemon: Bool {
        if case .noDaemon = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .noDaemon(let path):
            return "no romdev daemon is running (nothing answers on \(path))"
        case .permissionDenied(let path):
            return "permission denied on the daemon's control socket \(path)"
        case .busy(let path):
            return "the romdev daemon is busy (no free place on \(path))"
        case let .timedOut(path, request):
            return "no reply to '\(request)' from the romdev daemon on \(path) in time"
        case let .noReply(path, request):
            return "the romdev daemon on \(path) closed the connection without replying to '\(request)'"
        case let .malformedReply(path, reason):
            return "unreadable reply from the romdev daemon on \(path): \(reason)"
        case .pathTooLong(let path):
            return "control socket path \(path) is longer than \(UnixSocketAddress.capacity - 1) bytes"
        case .system(let error):
            return error.description
        }
    }

    /// What the user can do, or nil.
    public var hint: String? {
        switch self {
        case .permissionDenied:
            return "join the romdev group (sudo usermod -aG romdev $USER, then log in again), or run as the romdev user"
        case .busy:
            return "wait until the daemon has finished and try again"
        case .noReply, .timedOut:
            return "check the daemon with: systemctl status romdev; journalctl -u romdev"
        default:
            return nil
        }
    }
}
