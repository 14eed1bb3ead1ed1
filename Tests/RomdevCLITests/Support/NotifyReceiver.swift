import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A service manager's end of the notify protocol: a bound `SOCK_DGRAM` Unix socket whose path
/// goes in `NOTIFY_SOCKET`, read continuously as systemd does (a Unix datagram queue holds few
/// messages, and a sender blocks while it is full).
final class NotifyReceiver: @unchecked Sendable {
    let path: String
    private let descriptor: CInt
    private let lock = NSLock()
    private var received: [[String]] = []
    private var stopped = false

    init(directory: String) throws {
        path = directory + "/notify.sock"
        descriptor = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        precondition(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // The reader keeps the queue empty so the daemon never blocks on a full one.
        Thread { [weak self] in
            while let self, !self.lock.withLock({ self.stopped }) {
                var request = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&request, 1, 50)
                self.lock.withLock { self.drain() }
            }
        }.start()
    }

    deinit {
        close(descriptor)
    }

    /// Ends the reader; call before dropping the receiver.
    func stop() {
        lock.withLock { stopped = true }
    }

    /// Takes every queued datagram; the caller holds the lock.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
            guard count > 0 else { return }
            received.append(String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init))
        }
    }

    /// Every datagram received so far, each as its `KEY=VALUE` lines.
    func datagrams() -> [[String]] {
        lock.withLock {
            drain()
            return received
        }
    }
}
