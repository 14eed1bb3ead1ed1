import LinuxSystem
import ServiceSupport

/// Where the daemon's notifications and log lines go: the service manager and the journal in
/// production, a recording in tests.
public protocol DaemonOutput: AnyObject {
    /// Sends states to the service manager (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`).
    func notify(_ states: [ServiceState])
    /// Writes a log line.
    func log(_ level: LogLevel, _ message: String)
}

/// A control request waiting for its reply, from the control socket.
public struct PendingControlRequest {
    public let request: ControlRequest
    /// Sends the reply; call it once.
    public let reply: (ControlReply) -> Void

    public init(request: ControlRequest, reply: @escaping (ControlReply) -> Void) {
        self.request = request
        self.reply = reply
    }
}

/// The daemon's mailbox of control requests (the control socket's server): the loop waits on its
/// descriptors and takes the requests after every wake.
public protocol ControlRequestSource: AnyObject {
    /// What the loop's wait watches for the source (the listening socket and its clients).
    var pollDescriptors: [PollDescriptor] { get }
    /// How long until the source must be served even without input (a client's deadline), in
    /// nanoseconds from now; nil when nothing is pending.
    var nanosecondsUntilDeadline: UInt64? { get }
    /// The requests that arrived since the last call; never blocks.
    func takeRequests() -> [PendingControlRequest]
}
