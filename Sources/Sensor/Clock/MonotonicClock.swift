/// A monotonic time source the driver waits on and the simulator samples by.
///
/// Injected so that tests and the simulator can run faster than real time (`ManualClock`) and
/// `--simulate` and the hardware run at real time (`SystemClock`).
public protocol MonotonicClock: AnyObject {
    /// Seconds since an arbitrary fixed point; never decreases.
    var now: Double { get }

    /// Blocks (or, for a manual clock, advances time) for `seconds`.
    func sleep(seconds: Double)
}
