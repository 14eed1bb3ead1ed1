#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The host's `CLOCK_MONOTONIC`: nanoseconds since an arbitrary fixed point, never decreasing and
/// unmoved when the wall clock is set. The kernel stamps GPIO edge events on this clock, so button
/// edges, cues, sampling and time-outs all keep one time base.
public enum MonotonicTime {
    /// Now, in nanoseconds. The corresponding call is `clock_gettime(CLOCK_MONOTONIC, &ts)`.
    public static var nowNanoseconds: UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Sleeps until the clock reaches `deadline` (nanoseconds); returns at once for a deadline
    /// that has passed. The corresponding call is `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, …)`.
    ///
    /// - Parameter resumingAfterSignals: Whether a signal handler that ran (`EINTR`) is slept
    ///   through, which the absolute deadline makes exact; false returns early then, so that the
    ///   caller sees a stop signal at once.
    public static func sleep(untilNanoseconds deadline: UInt64, resumingAfterSignals: Bool = true) {
        var request = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &request, nil) == EINTR, resumingAfterSignals {}
    }

    /// Sleeps for `seconds` from now; see ``sleep(untilNanoseconds:resumingAfterSignals:)``.
    public static func sleep(seconds: Double, resumingAfterSignals: Bool = true) {
        guard seconds > 0 else { return }
        // Nine billion seconds is centuries; the cap keeps the conversion from trapping.
        let duration = UInt64(min((seconds * 1e9).rounded(), 9e18))
        sleep(untilNanoseconds: nowNanoseconds &+ duration, resumingAfterSignals: resumingAfterSignals)
    }
}
