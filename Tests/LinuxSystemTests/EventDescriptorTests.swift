import Glibc
import LinuxSystem
import Testing

private func isReadable(_ descriptor: CInt) throws -> Bool {
    try Poll.isReady(descriptor, for: .readable)
}

@Suite("Event descriptors and Unix sockets")
struct EventDescriptorTests {
    @Test func eventIsReadableFromSignalUntilReset() throws {
        let event = try EventFD()
        #expect(try !isReadable(event.descriptor))
        try event.signal()
        try event.signal()
        #expect(try isReadable(event.descriptor))
        #expect(try event.reset() == 2)
        #expect(try !isReadable(event.descriptor))
        #expect(try event.reset() == 0, "nothing to read is no error")
    }

    @Test func timerSetInThePastExpiresAtOnceAndDisarmClearsIt() throws {
        let timer = try TimerFD()
        try timer.arm(atNanoseconds: 1)
        var descriptors = [PollDescriptor(timer.descriptor)]
        // No time-out: the test hangs rather than pass if the timer never expires.
        while try Poll.wait(&descriptors, timeoutNanoseconds: nil) == 0 {}
        #expect(descriptors[0].returnedEvents.contains(.readable))
        try timer.disarm()
        #expect(try !isReadable(timer.descriptor))
        try timer.arm(afterNanoseconds: 3_600_000_000_000)
        #expect(try !isReadable(timer.descriptor))
    }

    @Test func socketReportsNothingYetAsNilAndTheEndAsEmpty() throws {
        let stray = try UnixSocket(.stream, path: "/nonexistent/control.sock")
        // A connect to nothing names the socket's path in the error.
        let address = try #require(UnixSocketAddress(path: "/nonexistent/control.sock"))
        #expect(throws: UnixSocketError(.connect, path: "/nonexistent/control.sock", errno: .noSuchFileOrDirectory)) {
            try stray.connect(to: address)
        }
        let server = try UnixSocket(.stream, path: "/run/test.sock")
        let bound = try #require(UnixSocketAddress(abstractName: Array("romdev-test-\(getpid())".utf8)))
        try server.bind(to: bound)
        try server.listen(backlog: 1)
        #expect(try server.accept() == nil, "no client waiting")
        let client = try UnixSocket(.stream, path: "@romdev-test")
        #expect(try client.connect(to: bound))
        let accepted = try #require(try server.accept())
        #expect(try accepted.receive() == nil, "nothing sent yet")
        #expect(try client.send(Array("hi".utf8)[...]) == 2)
        #expect(try accepted.receive() == Array("hi".utf8))
        client.shutdownWrite()
        #expect(try accepted.receive() == [], "end of the stream")
        #expect(accepted.peerProcessID == getpid())
    }
}
