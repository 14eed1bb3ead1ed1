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
    /// Guards `received`; signalled whenever datagrams arrive.
    private let lock = NSCondition()
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
            while let self, !self.isStopped {
                var request = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&request, 1, 50)
                self.lock.lock()
                self.drain()
                self.lock.unlock()
            }
        }.start()
    }

    deinit {
        close(descriptor)
    }

    /// Ends the reader; call before dropping the receiver.
    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Takes every queued datagram; the caller holds the lock.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
            guard count > 0 else { return }
            received.append(String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init))
            lock.broadcast()
        }
    }

    /// Waits until the assignments received after the first `skipping` ones include `line`,
    /// returning as soon as they do; false when `limit` seconds pass first (a deadline for a
    /// daemon that never says it, not a pause).
    ///
    /// - Returns: How many assignments had arrived when `line` did (for a later wait to skip),
    ///   nil at the deadline.
    func waitFor(_ line: String, skipping: Int = 0, limit: Double = 60) -> Int? {
        let deadline = Date().addingTimeInterval(limit)
        lock.lock()
        defer { lock.unlock() }
        while true {
            drain()
            let lines = received.flatMap { $0 }
            if let index = lines.dropFirst(skipping).firstIndex(of: line) { return index + 1 }
            guard lock.wait(until: deadline) else { return nil }
        }
    }

    /// Every datagram received so far, each as its `KEY=VALUE` lines.
    func datagrams() -> [[String]] {
        lock.lock()
        defer { lock.unlock() }
        drain()
        return received
    }
}
