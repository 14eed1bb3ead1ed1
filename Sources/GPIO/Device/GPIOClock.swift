import LinuxSystem
import Synchronization

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

    public var nowNanoseconds: UInt64 {
        MonotonicTime.nowNanoseconds
    }

    /// Sleeps through signals: the deadline is absolute.
    public func sleep(untilNanoseconds deadline: UInt64) {
        MonotonicTime.sleep(untilNanoseconds: deadline)
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
