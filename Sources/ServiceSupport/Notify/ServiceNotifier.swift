import LinuxSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells the service manager about start-up, status, liveness and shutdown over `$NOTIFY_SOCKET`,
/// the protocol of sd_notify(3), without libsystemd.
///
/// Without `$NOTIFY_SOCKET` (run by hand, or a unit that is not `Type=notify`) every call does
/// nothing. Each notification is one `SOCK_DGRAM` datagram of `KEY=VALUE` lines; the kernel
/// attaches our credentials, which is how the manager knows the sender.
public struct ServiceNotifier: Sendable {
    /// The value of `$NOTIFY_SOCKET`, or nil when notifications are off.
    public let socket: String?
    private let address: UnixSocketAddress?

    /// A notifier for `$NOTIFY_SOCKET` in `environment`.
    /// - Throws: `NotifyError.invalidSocket` when the variable is set but unusable, so a typo in a
    ///   test or unit shows at start-up instead of as a start-up time-out.
    public init(environment: [String: String]) throws(NotifyError) {
        guard let value = environment["NOTIFY_SOCKET"], !value.isEmpty else {
            socket = nil
            address = nil
            return
        }
        let parsed: UnixSocketAddress?
        if value.hasPrefix("@") {
            // sd_notify(3): "@" stands for the leading NUL byte of an abstract name.
            parsed = UnixSocketAddress(abstractName: Array(value.utf8.dropFirst()))
        } else if value.hasPrefix("/") {
            parsed = UnixSocketAddress(path: value)
        } else {
            parsed = nil
        }
        guard let parsed else { throw .invalidSocket(value) }
        socket = value
        address = parsed
    }

    /// True when notifications go somewhere.
    public var isEnabled: Bool { address != nil }

    /// Sends `states` as one datagram; does nothing when notifications are off.
    /// - Throws: `NotifyError` naming the socket and the failed call.
    public func notify(_ states: ServiceState...) throws(NotifyError) {
        try notify(states)
    }

    /// Sends `states` as one datagram; does nothing when notifications are off or `states` is empty.
    /// - Throws: `NotifyError` naming the socket and the failed call.
    public func notify(_ states: [ServiceState]) throws(NotifyError) {
        guard let address, let socket, !states.isEmpty else { return }
        let bytes = Array(ServiceState.datagram(states).utf8)
        let sent: Int
        do throws(UnixSocketError) {
            let datagram = try UnixSocket(.datagram, path: socket)
            // Never wait on a service manager that is not reading: a late notification is
            // better lost (EAGAIN) than the loop that pings the watchdog stalled.
            guard let count = try datagram.send(bytes[...], to: address) else {
                throw UnixSocketError(.send, path: socket, errno: .resourceTemporarilyUnavailable)
            }
            sent = count
        } catch {
            throw .system(error)
        }
        guard sent == bytes.count else { throw .truncated(socket: socket, sent: sent, of: bytes.count) }
    }
}
