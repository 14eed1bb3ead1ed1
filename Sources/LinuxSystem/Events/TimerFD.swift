#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinux

/// A one-shot timer on `CLOCK_MONOTONIC` that makes its descriptor readable when it expires, so
/// a ``Poll`` wait ends at a deadline without a time-out of its own. The corresponding call is
/// `timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)`.
public final class TimerFD: @unchecked Sendable {
    /// The descriptor to poll for ``PollEvents/readable``; owned here, never close it.
    public let descriptor: CInt

    /// - Throws: The `timerfd_create` error.
    public init() throws(Errno) {
        let descriptor = timerfd_create(CLOCK_MONOTONIC, CInt(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { throw .current }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Arms the timer to expire at `deadline` (`CLOCK_MONOTONIC` nanoseconds), replacing any
    /// earlier setting and clearing an expiry not yet read. A deadline already past expires at
    /// once. The corresponding call is `timerfd_settime(fd, TFD_TIMER_ABSTIME, …)`.
    public func arm(atNanoseconds deadline: UInt64) throws(Errno) {
        // A zero it_value disarms, so the earliest deadline is 1 ns.
        let at = max(deadline, 1)
        var setting = itimerspec(
            it_interval: timespec(),
            it_value: timespec(tv_sec: Int(at / 1_000_000_000), tv_nsec: Int(at % 1_000_000_000)))
        guard timerfd_settime(descriptor, CInt(TFD_TIMER_ABSTIME), &setting, nil) == 0 else { throw .current }
    }

    /// Arms the timer to expire `nanoseconds` from now.
    public func arm(afterNanoseconds nanoseconds: UInt64) throws(Errno) {
        let after = max(nanoseconds, 1)
        var setting = itimerspec(
            it_interval: timespec(),
            it_value: timespec(tv_sec: Int(after / 1_000_000_000), tv_nsec: Int(after % 1_000_000_000)))
        guard timerfd_settime(descriptor, 0, &setting, nil) == 0 else { throw .current }
    }

    /// Stops the timer and clears an expiry not yet read.
    public func disarm() throws(Errno) {
        var setting = itimerspec()
        guard timerfd_settime(descriptor, 0, &setting, nil) == 0 else { throw .current }
    }

    /// Reads and clears the expiry count, so the descriptor is no longer readable.
    /// - Returns: How many times it expired since the last read (0 when it had not).
    @discardableResult
    public func acknowledge() throws(Errno) -> UInt64 {
        var count: UInt64 = 0
        return try retryingOnInterrupt { () throws(Errno) -> UInt64 in
            if read(descriptor, &count, 8) == 8 { return count }
            let error = Errno.current
            if error == .resourceTemporarilyUnavailable { return 0 }
            throw error
        }
    }
}
