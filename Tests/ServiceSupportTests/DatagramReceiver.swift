import Foundation
import Glibc

/// A bound `SOCK_DGRAM` Unix socket standing in for the service manager's notify socket.
final class DatagramReceiver {
    let descriptor: CInt

    /// Binds to a path, or to an abstract name when `abstractName` is given.
    init(path: String? = nil, abstractName: String? = nil) throws {
        descriptor = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes: [UInt8] = path.map { Array($0.utf8) } ?? ([0] + Array((abstractName ?? "").utf8))
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard descriptor >= 0, result == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EINVAL) }
    }

    deinit {
        close(descriptor)
    }

    /// The next datagram, or nil when none is queued (never blocks).
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
