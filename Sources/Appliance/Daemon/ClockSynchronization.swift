import Foundation

/// Whether the host's clock was synchronised since boot.
public enum ClockSynchronization {
    /// systemd-timesyncd touches this file on each successful synchronisation; it stays after
    /// the network goes away, so it means "synchronised since boot". The daemon's unit sets
    /// `ProtectClock=yes`, which refuses even a read-only `adjtimex(2)`, so this file is the
    /// answer on the appliance (boards with a battery-backed clock set `require_clock_sync = no`).
    public static let timesyncFlag = "/run/systemd/timesync/synchronized"

    /// True when `flagPath` exists.
    public static func isSynchronized(flagPath: String = timesyncFlag) -> Bool {
        FileManager.default.fileExists(atPath: flagPath)
    }
}
