import Foundation

/// Whether the wall clock can be believed. A board without a battery-backed clock boots at the
/// time last saved to disk, wrong by however long it was off, until NTP synchronises it; chiming
/// or calling a day missed on that clock would be wrong.
public enum ClockTrust: Equatable, Sendable, CustomStringConvertible {
    case trusted
    /// Not synchronised since boot (and the configuration requires it).
    case notSynchronized
    /// Earlier than a result already stored: the clock must be behind.
    case behindStoredResult(newest: Date)

    /// - Parameters:
    ///   - now: The wall clock.
    ///   - synchronizedSinceBoot: Whether NTP synchronised the clock since boot.
    ///   - requireSync: The configuration's `require_clock_sync`.
    ///   - newestOutcome: The creation date of the newest stored outcome, if any.
    public static func evaluate(
        now: Date, synchronizedSinceBoot: Bool, requireSync: Bool, newestOutcome: Date?
    ) -> ClockTrust {
        if requireSync, !synchronizedSinceBoot { return .notSynchronized }
        if let newestOutcome, now < newestOutcome { return .behindStoredResult(newest: newestOutcome) }
        return .trusted
    }

    public var isTrusted: Bool { self == .trusted }

    public var description: String {
        switch self {
        case .trusted: "clock trusted"
        case .notSynchronized: "clock not synchronised since boot"
        case .behindStoredResult(let newest):
            "clock is earlier than the newest stored result (\(newest.formatted(.iso8601)))"
        }
    }
}
