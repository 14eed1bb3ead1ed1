/// The daemon loop's periodic checks. Everything else (button, control socket, signals, cue
/// steps, reminders, the day's end, the watchdog) wakes the loop when it is due. Production uses
/// `standard`; tests stretch the periods so a simulated day takes few loop turns.
public struct DaemonTiming: Equatable, Sendable {
    /// While a measurement or calibration runs, how often the loop takes its events (they come
    /// from the sampling thread, which does not wake the loop).
    public var busyPollNanoseconds: UInt64
    /// How often the care store is read again when nothing else asked for it (to see results,
    /// onboarding and plan changes made with the command line).
    public var storeRefreshNanoseconds: UInt64
    /// How often a missing sensor is probed again.
    public var sensorRetryNanoseconds: UInt64
    /// How long a failure's LED pattern shows before the day's pattern returns.
    public var faultCueNanoseconds: UInt64

    public init(
        busyPollNanoseconds: UInt64, storeRefreshNanoseconds: UInt64, sensorRetryNanoseconds: UInt64,
        faultCueNanoseconds: UInt64
    ) {
        self.busyPollNanoseconds = busyPollNanoseconds
        self.storeRefreshNanoseconds = storeRefreshNanoseconds
        self.sensorRetryNanoseconds = sensorRetryNanoseconds
        self.faultCueNanoseconds = faultCueNanoseconds
    }

    /// A running session every 100 ms, the store every 30 s, the sensor every 10 s, faults shown
    /// for 15 s.
    public static let standard = DaemonTiming(
        busyPollNanoseconds: 100_000_000, storeRefreshNanoseconds: 30_000_000_000,
        sensorRetryNanoseconds: 10_000_000_000, faultCueNanoseconds: 15_000_000_000)
}
