import Foundation
import Glibc
import SQLite
import ServiceSupport
import Testing

/// The fuzz tier's control-socket part: malformed requests to one running simulated daemon.
/// After each, the daemon must still run and answer `status`; at the end it must stop cleanly on
/// SIGTERM with the store's rows unchanged. A failure prints the seed;
/// `FuzzControlRequest.bytes(seed:)` rebuilds the request.
@Suite("Fuzz: malformed control-socket requests")
struct ControlSocketFuzzTests {
    static let cases = 80
    static let firstSeed: UInt64 = 0x736F_636B_0000_0000

    @Test func malformedRequestsLeaveTheDaemonAnswering() throws {
        let device = try DaemonEndToEndTests.Device()
        let database = try Database(path: device.directory.storePath)
        let rows = try FuzzFixture.rows(of: database)
        // 06:00 on day 1: no reminder or session is due for hours of simulated time.
        try device.start(["--start-at", device.tomorrowAt("06:00:00")])
        try #require(device.waitForLog("control socket"), "\(device.log)")
        let path = ControlSocketLocation.path(environment: device.environment)
        var failures: [String] = []
        for index in 0..<Self.cases {
            let seed = Self.firstSeed &+ UInt64(index)
            let request = FuzzControlRequest.bytes(seed: seed)
            let reply = try Self.exchange(request, path: path)
            var problems: [String] = []
            if device.process?.isRunning != true { problems.append("the daemon stopped") }
            do {
                let status = try ControlClient(path: path).send(.status)
                if status.status != .ok { problems.append("status answered \(status.status): \(status.message)") }
            } catch {
                problems.append("status failed: \(error)")
            }
            if !problems.isEmpty {
                let shown = String(decoding: request.prefix(300), as: UTF8.self).debugDescription
                failures.append(
                    "control seed \(seed): \(problems.joined(separator: "; "))\n  request (\(request.count) bytes): \(shown)\n  reply: \(String(decoding: reply.prefix(300), as: UTF8.self))"
                )
                if device.process?.isRunning != true { break }
            }
        }
        device.signal(SIGTERM)
        #expect(device.wait() == 0, "\(device.log.suffix(2000))")
        #expect(try FuzzFixture.rows(of: database) == rows)
        #expect(
            failures.isEmpty,
            Comment(rawValue: "\(failures.count) requests failed:\n" + failures.prefix(10).joined(separator: "\n")))
    }

    /// Sends `bytes` on a new connection, closes the sending side and reads until the daemon
    /// closes. A send the daemon cuts short is no error here (it may refuse a long line early);
    /// the receive timeout only turns a hang into a failure instead of a stuck suite.
    static func exchange(_ bytes: [UInt8], path: String) throws -> [UInt8] {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(operation: "socket", code: errno) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { throw SocketError(operation: "connect", code: errno) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if result <= 0 { break }
            sent += result
        }
        shutdown(fd, Int32(SHUT_WR))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            reply += buffer[..<count]
        }
        return reply
    }

    struct SocketError: Error, CustomStringConvertible {
        var operation: String
        var code: Int32
        var description: String { "\(operation): errno \(code)" }
    }
}
