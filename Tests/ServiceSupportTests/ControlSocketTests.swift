import Foundation
import Glibc
import LinuxSystem
import ServiceSupport
import Synchronization
import TestSupport
import Testing

/// A client request running on its own thread, as `romdev measure` would in another process.
private final class PendingCall: Sendable {
    private let result = Mutex<Result<ControlReply, ControlClientError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ client: ControlClient, _ request: ControlRequest, replyTimeoutNanoseconds: UInt64? = nil) {
        Thread.detachNewThread {
            let outcome: Result<ControlReply, ControlClientError>
            do throws(ControlClientError) {
                outcome = .success(try client.send(request, replyTimeoutNanoseconds: replyTimeoutNanoseconds))
            } catch {
                outcome = .failure(error)
            }
            self.result.withLock { $0 = outcome }
            self.done.signal()
        }
    }

    /// Waits for the client to finish.
    func outcome() -> Result<ControlReply, ControlClientError> {
        done.wait()
        done.signal()
        return result.withLock { $0! }
    }
}

/// How long a test waits for a client before it fails instead of hanging.
private let patienceNanoseconds: UInt64 = 60_000_000_000

/// Polls the server the way the daemon's loop does until `count` requests have arrived.
private func receive(_ count: Int, from server: ControlServer) throws -> [ControlServer.Received] {
    let deadline = MonotonicTime.nowNanoseconds + patienceNanoseconds
    var received: [ControlServer.Received] = []
    while received.count < count {
        try #require(MonotonicTime.nowNanoseconds < deadline, "\(received.count) of \(count) requests arrived")
        received += try server.receive()
        MonotonicTime.sleep(seconds: 0.002)
    }
    return received
}

/// Polls the server, which must hand nothing over, until the client thread signals `finished`.
private func serveNothing(_ server: ControlServer, until finished: DispatchSemaphore) throws {
    let deadline = MonotonicTime.nowNanoseconds + patienceNanoseconds
    while finished.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
        try #require(MonotonicTime.nowNanoseconds < deadline, "the client did not finish")
        #expect(try server.receive().isEmpty)
    }
}

/// A socket file with nobody listening, as a daemon killed with SIGKILL leaves it.
private func makeStaleSocket(at path: String) throws {
    let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0)
    let bound = withAddress(of: path) { bind(descriptor, $0, $1) }
    close(descriptor)
    #expect(bound == 0)
}

/// The `sockaddr_un` of `path`.
func unixAddress(_ path: String) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    return address
}

/// Calls `body` with `address` as a `sockaddr` and its length, for bind(2) and connect(2).
func withSockaddr<T>(_ address: inout sockaddr_un, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

/// Calls `body` with the `sockaddr` of `path` and its length.
func withAddress<T>(of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var address = unixAddress(path)
    return withSockaddr(&address, body)
}

/// A blocking connection to the socket at `path`, or nil.
func rawConnect(_ path: String) -> CInt? {
    let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0)
    guard withAddress(of: path, { connect(descriptor, $0, $1) }) == 0 else {
        close(descriptor)
        return nil
    }
    return descriptor
}

/// A raw connection that sends `text` and reads until the server closes.
private func rawExchange(_ path: String, _ text: String) throws -> String {
    let descriptor = try #require(rawConnect(path))
    defer { close(descriptor) }
    _ = Array(text.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL)) }
    return String(decoding: try readToEnd(descriptor), as: UTF8.self)
}

private func readToEnd(_ descriptor: CInt) throws -> [UInt8] {
    try readToEndReportingReset(descriptor).bytes
}

/// Reads until the server closes; `reset` tells a reset connection from an orderly end.
private func readToEndReportingReset(_ descriptor: CInt) throws -> (bytes: [UInt8], reset: Bool) {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { return (result, false) }
        if count < 0 { return (result, true) }
        result += buffer[..<count]
    }
}

@Suite("Control socket")
struct ControlSocketTests {
    @Test func requestIsAnsweredFromTheDaemonLoop() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        let call = PendingCall(ControlClient(path: server.path), .measure(limb: "left"))
        let received = try receive(1, from: server)
        #expect(received.map(\.request) == [.measure(limb: "left")])
        #expect(server.pendingRequests == received.map(\.id))
        #expect(server.reply(.ok("Range of motion 112°"), to: received[0].id))
        #expect(try call.outcome().get() == .ok("Range of motion 112°"))
        #expect(server.pendingRequests.isEmpty)
        #expect(!server.reply(.ok("again"), to: received[0].id), "a request is answered once")
    }

    @Test func repliesMayComeLaterAndInAnyOrder() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        let first = PendingCall(ControlClient(path: server.path), .calibrate)
        let firstRequest = try receive(1, from: server)[0]
        let second = PendingCall(ControlClient(path: server.path), .status)
        let secondRequest = try receive(1, from: server)[0]
        #expect(secondRequest.request == .status)
        server.reply(.busy("calibrating"), to: secondRequest.id)
        #expect(try second.outcome().get() == .busy("calibrating"))
        #expect(try server.receive().isEmpty)
        server.reply(.failed("sensor moved"), to: firstRequest.id)
        #expect(try first.outcome().get() == .failed("sensor moved"))
    }

    @Test func malformedRequestIsAnsweredByTheServerItself() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        let answer = Mutex<String?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let path = server.path
        Thread.detachNewThread {
            let text = try? rawExchange(path, #"{"request":"reboot"}"# + "\n")
            answer.withLock { $0 = text }
            finished.signal()
        }
        // The daemon's loop keeps polling; the bad request never reaches it.
        try serveNothing(server, until: finished)
        #expect(answer.withLock { $0 } == #"{"message":"unknown request 'reboot'","status":"bad-request"}"# + "\n")
    }

    @Test func socketIsGroupReadWritableOnly() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        var status = stat()
        #expect(stat(server.path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o660)
    }

    @Test func missingDirectoryIsCreated() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("run/control.sock"))
        #expect(FileManager.default.fileExists(atPath: server.path))
    }

    @Test func staleSocketFromADeadDaemonIsReplaced() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("control.sock")
        try makeStaleSocket(at: path)
        #expect(throws: ControlClientError.noDaemon(path: path)) { try ControlClient(path: path).send(.status) }
        let server = try ControlServer(path: path)
        let call = PendingCall(ControlClient(path: path), .status)
        server.reply(.ok("idle"), to: try receive(1, from: server)[0].id)
        #expect(try call.outcome().get() == .ok("idle"))
    }

    @Test func liveDaemonKeepsItsSocket() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("control.sock")
        let running = try ControlServer(path: path)
        #expect(throws: ControlServerError.alreadyRunning(path)) { try ControlServer(path: path) }
        let call = PendingCall(ControlClient(path: path), .status)
        running.reply(.ok("still here"), to: try receive(1, from: running)[0].id)
        #expect(try call.outcome().get() == .ok("still here"))
    }

    @Test func otherFileAtThePathIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("control.sock")
        try "keep me".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: ControlServerError.notASocket(path)) { try ControlServer(path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    @Test func closeRemovesOnlyItsOwnSocket() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("control.sock")
        let server = try ControlServer(path: path)
        server.close()
        #expect(!FileManager.default.fileExists(atPath: path))
        server.close()

        let replaced = try ControlServer(path: path)
        unlink(path)
        let successor = try ControlServer(path: path)
        replaced.close()
        #expect(FileManager.default.fileExists(atPath: path), "the successor's socket stays")
        successor.close()
    }

    @Test func noSocketMeansNoDaemon() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: ControlClientError.noDaemon(path: directory.path("control.sock"))) {
            try ControlClient(path: directory.path("control.sock")).send(.status)
        }
        #expect(ControlClientError.noDaemon(path: directory.path("control.sock")).isNoDaemon)
        #expect(throws: ControlClientError.noDaemon(path: directory.path("missing/control.sock"))) {
            try ControlClient(path: directory.path("missing/control.sock")).send(.status)
        }
    }

    @Test func fullQueueIsReportedAsBusy() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        // The daemon is not polling (mid-measurement): fill its listen queue with silent clients.
        var fillers: [CInt] = []
        defer { for filler in fillers { close(filler) } }
        let client = ControlClient(path: server.path, connectTimeoutNanoseconds: 50_000_000)
        var outcome: ControlClientError?
        while outcome == nil && fillers.count < 64 {
            do throws(ControlClientError) {
                _ = try client.send(.status, replyTimeoutNanoseconds: 0)
            } catch .timedOut {
                // Connected and queued; keep a silent client there instead.
                let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue), 0)
                var address = sockaddr_un()
                address.sun_family = sa_family_t(AF_UNIX)
                withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(server.path.utf8)) }
                _ = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
                fillers.append(descriptor)
            } catch {
                outcome = error
            }
        }
        #expect(outcome == .busy(path: server.path))
    }

    @Test func clientsBeyondTheLimitWaitInTheQueueUntilAPlaceFrees() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        let calls = (0..<ControlServer.maximumConnections).map { _ in
            PendingCall(ControlClient(path: server.path), .status)
        }
        let received = try receive(ControlServer.maximumConnections, from: server)
        // Connected (the kernel queues it) with its request sent, but every place is taken by a
        // client waiting for its reply: it stays in the queue.
        let extra = try #require(rawConnect(server.path))
        defer { close(extra) }
        _ = Array(ControlRequest.calibrate.line).withUnsafeBytes {
            send(extra, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL))
        }
        #expect(try server.receive().isEmpty)
        for request in received {
            server.reply(.ok("idle"), to: request.id)
        }
        for call in calls {
            #expect(try call.outcome().get() == .ok("idle"))
        }
        let next = try server.receive()
        #expect(next.map(\.request) == [.calibrate])
        if let request = next.first { server.reply(.busy("calibrating"), to: request.id) }
        #expect(try ControlReply(line: Array(try readToEnd(extra).dropLast())) == .busy("calibrating"))
    }

    @Test func aFloodOfClientsIsServedOverSeveralTurns() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        // More clients than one turn takes, each gone at once, so none keeps a place. Were they
        // all taken in one turn, a flood of them would keep the daemon's loop accepting for as
        // long as it lasted: no button, no cues, no watchdog ping.
        for _ in 0..<(ControlServer.acceptsPerTurn + 2) {
            close(try #require(rawConnect(server.path)))
        }
        func clientsWaiting() throws -> Bool {
            var descriptors = server.pollDescriptors
            return try Poll.wait(&descriptors, timeoutNanoseconds: 0) > 0
        }
        #expect(try server.receive().isEmpty)
        #expect(try clientsWaiting(), "the rest waits for the next turn")
        #expect(try server.receive().isEmpty)
        #expect(try !clientsWaiting())
    }

    @Test func silentClientsMakeRoomForOneWithARequest() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        // Clients that connect and never send a line take every place.
        var silent: [CInt] = []
        defer { for descriptor in silent { close(descriptor) } }
        for _ in 0..<ControlServer.maximumConnections {
            let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(server.path.utf8)) }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            #expect(connected == 0)
            silent.append(descriptor)
        }
        #expect(try server.receive().isEmpty)
        let call = PendingCall(ControlClient(path: server.path), .status)
        server.reply(.ok("idle"), to: try receive(1, from: server)[0].id)
        #expect(try call.outcome().get() == .ok("idle"))
        // The oldest silent client was dropped: it reads end of file.
        var byte: UInt8 = 0
        #expect(recv(silent[0], &byte, 1, 0) == 0)
    }

    @Test func daemonThatNeverRepliesTimesOut() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        let call = PendingCall(ControlClient(path: server.path), .status, replyTimeoutNanoseconds: 20_000_000)
        _ = try receive(1, from: server)
        #expect(throws: ControlClientError.timedOut(path: server.path, request: "status")) { try call.outcome().get() }
    }

    @Test func daemonThatStopsWithoutReplyingIsReported() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        let call = PendingCall(ControlClient(path: server.path), .measure(limb: nil))
        _ = try receive(1, from: server)
        server.close()
        #expect(throws: ControlClientError.noReply(path: server.path, request: "measure")) { try call.outcome().get() }
    }

    @Test func replyToAClientThatLeftIsDroppedQuietly() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        let call = PendingCall(ControlClient(path: server.path), .status, replyTimeoutNanoseconds: 1_000_000)
        let request = try receive(1, from: server)[0]
        #expect(throws: ControlClientError.self) { try call.outcome().get() }
        // No SIGPIPE: the test process would die here if the server wrote without MSG_NOSIGNAL.
        server.reply(.ok(String(repeating: "x", count: 300_000)), to: request.id)
        #expect(try server.receive().isEmpty)
    }

    @Test func permissionErrorsNameTheGroup() {
        let error = ControlClientError.permissionDenied(path: "/run/romdev/control.sock")
        #expect(error.description == "permission denied on the daemon's control socket /run/romdev/control.sock")
        #expect(error.hint?.contains("romdev group") == true)
        #expect(!error.isNoDaemon)
    }

    @Test(.enabled(if: getuid() != 0, "root may connect whatever the mode"))
    func socketOutsideTheGroupIsPermissionDenied() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"), mode: 0o600)
        chmod(server.path, 0o000)
        #expect(throws: ControlClientError.permissionDenied(path: server.path)) {
            try ControlClient(path: server.path).send(.status)
        }
    }

    /// Requests nested `depth` deep: 1300 objects make 6.5 KB, longer than a request may be.
    static func nested(_ kind: String, depth: Int) -> String {
        kind == "array"
            ? String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            : #"{"request":"status","x":"# + String(repeating: #"{"a":"#, count: depth) + "1"
                + String(repeating: "}", count: depth) + "}"
    }

    @Test(arguments: [("object", 1300), ("array", 3000), ("object", 200)])
    func anOversizeOrNestedRequestGetsAReplyAndAnOrderlyEnd(kind: String, depth: Int) throws {
        let text = Self.nested(kind, depth: depth)
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        let answer = Mutex<(bytes: [UInt8], reset: Bool)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let path = server.path
        Thread.detachNewThread {
            guard let descriptor = rawConnect(path) else {
                finished.signal()
                return
            }
            defer { close(descriptor) }
            _ = Array((text + "\n").utf8).withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL))
            }
            let outcome = try? readToEndReportingReset(descriptor)
            answer.withLock { $0 = outcome }
            finished.signal()
        }
        try serveNothing(server, until: finished)
        let (bytes, reset) = try #require(answer.withLock { $0 })
        #expect(!reset, "the connection was reset")
        let reply = try ControlReply(line: Array(bytes.dropLast()))
        #expect(reply.status == .badRequest)
        #expect(text.utf8.count < 4096 || reply.message == "request longer than 4096 bytes")
    }

    @Test func clientsPastTheirDeadlineAreDisconnected() throws {
        final class ManualClock: @unchecked Sendable { var now: UInt64 = 0 }
        let clock = ManualClock()
        let directory = try TemporaryDirectory()
        let server = try ControlServer(
            path: directory.path("control.sock"), clientTimeoutNanoseconds: 1_000, clock: { clock.now })
        let silent = try #require(rawConnect(server.path))
        defer { close(silent) }
        #expect(try server.receive().isEmpty)
        var byte: UInt8 = 0
        clock.now = 999
        #expect(try server.receive().isEmpty)
        #expect(recv(silent, &byte, 1, CInt(MSG_DONTWAIT)) == -1 && errno == EAGAIN, "still connected")
        clock.now = 1_000
        #expect(try server.receive().isEmpty)
        #expect(recv(silent, &byte, 1, CInt(MSG_DONTWAIT)) == 0, "disconnected")
    }

    @Test func oneClientOpeningIdleConnectionsCannotStarveAnother() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        // Built before fork: the child must not allocate.
        var address = unixAddress(server.path)
        var commands: [CInt] = [0, 0]
        var acknowledgements: [CInt] = [0, 0]
        #expect(pipe(&commands) == 0 && pipe(&acknowledgements) == 0)
        // Another process, as the greedy client is: the server tells clients apart by process.
        // The child only makes system calls: the test process has threads.
        let child = fork()
        if child == 0 {
            close(commands[1])
            close(acknowledgements[0])
            var count: UInt8 = 0
            while read(commands[0], &count, 1) == 1 {
                for _ in 0..<Int(count) {
                    let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue), 0)
                    _ = withSockaddr(&address) { connect(descriptor, $0, $1) }
                }
                _ = write(acknowledgements[1], &count, 1)
            }
            _exit(0)
        }
        try #require(child > 0)
        close(commands[0])
        close(acknowledgements[1])
        defer {
            close(acknowledgements[0])
            close(commands[1])
            var status: CInt = 0
            waitpid(child, &status, 0)
        }
        func childOpens(_ count: UInt8) {
            var count = count
            #expect(write(commands[1], &count, 1) == 1)
            #expect(read(acknowledgements[0], &count, 1) == 1)
        }
        childOpens(UInt8(ControlServer.maximumConnections))
        #expect(try server.receive().isEmpty)
        // Every place is taken by the idle client; ours sends its request, then the idle client
        // opens more connections behind it.
        let client = try #require(rawConnect(server.path))
        defer { close(client) }
        _ = Array(ControlRequest.status.line).withUnsafeBytes {
            send(client, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL))
        }
        childOpens(16)
        let received = try server.receive()
        #expect(received.map(\.request) == [.status])
        if let request = received.first { server.reply(.ok("idle"), to: request.id) }
        #expect(try ControlReply(line: Array(try readToEnd(client).dropLast())) == .ok("idle"))
    }
}
