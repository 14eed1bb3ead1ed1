import Glibc
import LinuxSystem
import Testing

@Suite struct ErrnoTests {
    @Test func describesWithStrerrorAndSymbolicName() {
        #expect(Errno.remoteIO.description == "Remote I/O error (EREMOTEIO)")
        #expect(Errno.permissionDenied.description == "Permission denied (EACCES)")
        #expect(Errno(rawValue: EINTR) == .interrupted)
    }

    @Test func unnamedValueRoundTrips() {
        let odd = Errno(rawValue: 4242)
        #expect(odd.rawValue == 4242)
        #expect(odd.symbolicName == "errno 4242")
    }

    @Test func currentReadsErrno() {
        errno = EBUSY
        #expect(Errno.current == .resourceBusy)
    }

    @Test func matchesInCatchClauses() {
        func fails() throws { throw Errno.timedOut }
        var matched = false
        do { try fails() } catch Errno.timedOut { matched = true } catch {}
        #expect(matched)
    }

    @Test(arguments: [0, 1, 3])
    func retriesOnlyInterrupts(interrupts: Int) throws {
        var calls = 0
        let value = try retryingOnInterrupt { () throws(Errno) -> Int in
            calls += 1
            if calls <= interrupts { throw Errno.interrupted }
            return 7
        }
        #expect(value == 7)
        #expect(calls == interrupts + 1)
    }

    @Test func surfacesOtherErrorsAtOnce() {
        var calls = 0
        #expect(throws: Errno.ioError) {
            try retryingOnInterrupt { () throws(Errno) in
                calls += 1
                throw Errno.ioError
            }
        }
        #expect(calls == 1)
    }
}
