/// The daemon loop's pace. Production uses `standard`; tests stretch the waits so a simulated
/// day takes few loop turns.
public struct DaemonTiming: Equatable, Sendable {
    /// The longest wait for the button before the loop checks the clock, the stop flag and the
    /// control socket again.
    public var pollNanoseconds: UInt64
    /// How often the care store is read again when nothing else asked for it (to see results,
    /// onboarding and plan changes made with the command line).
    public var storeRefreshNanoseconds: UInt64
    /// How often a missing sensor is probed again.
    public var sensorRetryNanoseconds: UInt64
    /// How long a failure's LED pattern shows before the day's pattern returns.
    public var faultCueNanoseconds: UInt64

    public init(pollNanoseconds: UInt64, storeRefreshNanoseconds: UInt64, sensorRetryNanoseconds: UInt64, faultCueNanoseconds: UInt64) {
        self.pollNanoseconds = pollNanoseconds
        self.storeRefreshNanoseconds = storeRefreshNanoseconds
        self.sensorRetryNanoseconds = sensorRetryNanoseconds
        self.faultCueNanoseconds = faultCueNanoseconds
    }

    /// 100 ms polls, the store every 30 s, the sensor every 10 s, faults shown for 15 s.
    public static let standard = DaemonTiming(
        pollNanoseconds: 100_000_000, storeRefreshNanoseconds: 30_000_000_000,
        sensorRetryNanoseconds: 10_000_000_000, faultCueNanoseconds: 15_000_000_000)
}
