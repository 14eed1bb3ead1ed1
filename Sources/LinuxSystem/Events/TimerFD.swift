import CLinux

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    /// earlier setting and clearing an expiry not yet read (the kernel resets the count, so an
    /// expiry never needs reading: setting the timer again acknowledges it). A deadline already
    /// past expires at once. The corresponding call is `timerfd_settime(fd, TFD_TIMER_ABSTIME, …)`.
    public func arm(atNanoseconds deadline: UInt64) throws(Errno) {
        try set(deadline, flags: CInt(TFD_TIMER_ABSTIME))
    }

    /// Arms the timer to expire `nanoseconds` from now.
    public func arm(afterNanoseconds nanoseconds: UInt64) throws(Errno) {
        try set(nanoseconds, flags: 0)
    }

    /// Stops the timer and clears an expiry not yet read.
    public func disarm() throws(Errno) {
        var setting = itimerspec()
        guard timerfd_settime(descriptor, 0, &setting, nil) == 0 else { throw .current }
    }

    private func set(_ nanoseconds: UInt64, flags: CInt) throws(Errno) {
        // A zero it_value disarms, so the earliest expiry is 1 ns.
        let value = max(nanoseconds, 1)
        var setting = itimerspec(
            it_interval: timespec(),
            it_value: timespec(tv_sec: Int(value / 1_000_000_000), tv_nsec: Int(value % 1_000_000_000)))
        guard timerfd_settime(descriptor, flags, &setting, nil) == 0 else { throw .current }
    }
}
