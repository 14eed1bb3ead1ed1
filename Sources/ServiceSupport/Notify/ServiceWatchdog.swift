/// The service manager's watchdog, from `$WATCHDOG_USEC` and `$WATCHDOG_PID` (sd_watchdog_enabled(3)).
///
/// Send `WATCHDOG=1` from the working loop itself, after it has done its work, at least every
/// ``pingIntervalNanoseconds``: a separate timer would keep a hung loop looking alive.
public struct ServiceWatchdog: Equatable, Sendable {
    /// The interval after which the manager considers the service hung, in nanoseconds.
    public let timeoutNanoseconds: UInt64

    /// The watchdog of the unit running process `processID`, or nil when it is off: no (or a zero
    /// or malformed) `$WATCHDOG_USEC`, or a `$WATCHDOG_PID` naming another process (the variables
    /// were inherited from a parent that is the one being watched).
    public init?(environment: [String: String], processID: Int32) {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0,
            microseconds <= UInt64.max / 1000
        else { return nil }
        if let pidText = environment["WATCHDOG_PID"] {
            guard let pid = Int32(pidText), pid == processID else { return nil }
        }
        timeoutNanoseconds = microseconds * 1000
    }

    /// How often to ping: half the time-out, as sd_watchdog_enabled(3) recommends, so one late
    /// loop turn does not get the service killed.
    public var pingIntervalNanoseconds: UInt64 { timeoutNanoseconds / 2 }

    /// When the next ping is due, on the same clock as `lastPingNanoseconds`.
    public func nextPingDue(afterPingAtNanoseconds lastPingNanoseconds: UInt64) -> UInt64 {
        let (due, overflow) = lastPingNanoseconds.addingReportingOverflow(pingIntervalNanoseconds)
        return overflow ? .max : due
    }
}
