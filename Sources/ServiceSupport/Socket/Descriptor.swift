#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSystem

/// Waits until `descriptor` is ready for `events` or `deadline` (monotonic nanoseconds) passes.
/// A signal does not end the wait early: the remaining time is waited again.
/// - Returns: False at the deadline.
func waitFor(_ events: Int16, on descriptor: CInt, untilNanoseconds deadline: UInt64) throws(Errno) -> Bool {
    while true {
        let now = MonotonicTime.nowNanoseconds
        guard now < deadline else { return false }
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        // Round up so a wait never spins on a zero time-out just before the deadline.
        let milliseconds = CInt(clamping: (deadline - now + 999_999) / 1_000_000)
        let result = poll(&entry, 1, milliseconds)
        if result > 0 { return true }
        if result < 0 {
            let error = Errno.current
            if error == .interrupted { continue }
            throw error
        }
    }
}

/// Sets `O_NONBLOCK` on a descriptor. The corresponding call is `fcntl(fd, F_SETFL, …)`.
func setNonBlocking(_ descriptor: CInt) throws(Errno) {
    let flags = fcntl(descriptor, F_GETFL)
    guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { throw .current }
}
