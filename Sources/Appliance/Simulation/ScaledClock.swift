import GPIO
import LinuxSystem
import Sensor

/// Simulated time that runs `rate` times faster than the host's monotonic clock, for `--simulate`:
/// the button, the cues, the simulated sensor and its sampling loop all keep this one time, so a
/// session or a day passes in a fraction of the real time while staying in step.
///
/// A sleep that a signal handler interrupts ends early; the daemon's loop takes its signals from a
/// signalfd, so no handler interrupts it.
public final class ScaledClock: GPIOClock, MonotonicClock, @unchecked Sendable {
    /// Simulated seconds per real second.
    public let rate: Double
    private let origin: UInt64

    /// - Parameter rate: At least 1 (real time).
    public init(rate: Double) {
        precondition(rate >= 1, "a scaled clock runs at real time or faster")
        self.rate = rate
        origin = MonotonicTime.nowNanoseconds
    }

    public var nowNanoseconds: UInt64 {
        UInt64((Double(MonotonicTime.nowNanoseconds - origin) * rate).rounded())
    }

    public var now: Double {
        Double(nowNanoseconds) / 1e9
    }

    public func makeAlarm() throws(Errno) -> any ClockAlarm {
        try MonotonicAlarm(clock: self, rate: rate)
    }

    public func sleep(untilNanoseconds deadline: UInt64) {
        let current = nowNanoseconds
        guard deadline > current else { return }
        MonotonicTime.sleep(seconds: Double(deadline - current) / 1e9 / rate, resumingAfterSignals: false)
    }

    public func sleep(seconds: Double) {
        MonotonicTime.sleep(seconds: seconds / rate, resumingAfterSignals: false)
    }
}
