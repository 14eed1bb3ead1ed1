/// One state change sent to the service manager, as a `KEY=VALUE` line of the notify protocol
/// (sd_notify(3)).
public enum ServiceState: Equatable, Sendable {
    /// `READY=1`: start-up finished (store open, sensor checked, lines requested).
    case ready
    /// `STATUS=…`: one line shown by `systemctl status`, e.g. "waiting for the button".
    case status(String)
    /// `WATCHDOG=1`: the working loop is alive.
    case watchdog
    /// `STOPPING=1`: shutting down after a stop request.
    case stopping
    /// `RELOADING=1`: re-reading the configuration (SIGHUP); `READY=1` follows when done.
    case reloading
    /// `ERRNO=…`: the error number of a failure, sent before a failing exit.
    case errno(CInt)

    /// The protocol line, without a newline. Line breaks inside a status become spaces, since a
    /// newline would end the assignment and start a new (bogus) one.
    public var assignment: String {
        switch self {
        case .ready: return "READY=1"
        case .status(let text):
            return "STATUS=" + String(text.map { $0.isNewline ? " " : $0 })
        case .watchdog: return "WATCHDOG=1"
        case .stopping: return "STOPPING=1"
        case .reloading: return "RELOADING=1"
        case .errno(let number): return "ERRNO=\(number)"
        }
    }

    /// The datagram for several states: their assignments, one per line.
    public static func datagram(_ states: [ServiceState]) -> String {
        states.map(\.assignment).joined(separator: "\n") + "\n"
    }
}
