import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The time base of button edges, cues and the simulator: nanoseconds on `CLOCK_MONOTONIC`, the
/// clock the kernel stamps GPIO edge events with.
///
/// Injected so tests and the simulator can run faster than real time (`ManualGPIOClock`).
public protocol GPIOClock: AnyObject, Sendable {
    /// Nanoseconds since an arbitrary fixed point; never decreases.
    var nowNanoseconds: UInt64 { get }

    /// Blocks (a manual clock: jumps) until `nowNanoseconds` has reached `deadline`.
    func sleep(untilNanoseconds deadline: UInt64)
}

/// The host's `CLOCK_MONOTONIC`.
public final class SystemGPIOClock: GPIOClock {
    public init() {}

    /// The corresponding call is `clock_gettime(CLOCK_MONOTONIC, &ts)`.
    public var nowNanoseconds: UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// The corresponding call is `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, …)`, repeated
    /// after `EINTR` (an absolute deadline makes the repeat exact).
    public func sleep(untilNanoseconds deadline: UInt64) {
        var request = timespec(
            tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &request, nil) == EINTR {}
    }
}

/// A clock that moves only when told to: sleeping jumps to the deadline at once.
public final class ManualGPIOClock: GPIOClock {
    private let now: Mutex<UInt64>

    /// - Parameter startNanoseconds: The first reading.
    public init(startNanoseconds: UInt64 = 0) {
        now = Mutex(startNanoseconds)
    }

    public var nowNanoseconds: UInt64 {
        now.withLock { $0 }
    }

    public func sleep(untilNanoseconds deadline: UInt64) {
        now.withLock { $0 = max($0, deadline) }
    }

    /// Moves time forward by `nanoseconds`.
    public func advance(byNanoseconds nanoseconds: UInt64) {
        now.withLock { $0 += nanoseconds }
    }
}
