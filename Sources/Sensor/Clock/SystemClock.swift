import LinuxSystem

/// The host's `CLOCK_MONOTONIC`.
public final class SystemClock: MonotonicClock {
    public init() {}

    public var now: Double {
        Double(MonotonicTime.nowNanoseconds) / 1e9
    }

    /// Sleeps through signals.
    public func sleep(seconds: Double) {
        MonotonicTime.sleep(seconds: seconds)
    }
}
