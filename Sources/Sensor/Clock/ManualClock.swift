/// A clock that moves only when told to: `sleep` advances it instantly. Lets the simulator and the
/// driver run a session many times faster than real time, deterministically.
public final class ManualClock: MonotonicClock {
    /// Seconds; changes only through `sleep` and `advance`.
    public private(set) var now: Double

    /// - Parameter start: The initial reading, in seconds.
    public init(start: Double = 0) {
        now = start
    }

    public func sleep(seconds: Double) {
        advance(by: seconds)
    }

    /// Moves time forward; negative amounts are ignored (the clock is monotonic).
    public func advance(by seconds: Double) {
        now += max(0, seconds)
    }
}
