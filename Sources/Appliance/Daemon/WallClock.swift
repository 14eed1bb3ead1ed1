import Foundation
import GPIO
import Synchronization

/// The wall clock the daemon reads days, reminders and outcome dates from. Read afresh on every
/// wake, never accumulated, so a clock step or a DST change is seen at the next wake.
public protocol WallClock: AnyObject, Sendable {
    var now: Date { get }
}

/// The host's `CLOCK_REALTIME`.
public final class SystemWallClock: WallClock {
    public init() {}

    public var now: Date { Date() }
}

/// A wall clock for `--simulate` and tests: a chosen start instant advanced by a monotonic clock,
/// and steps applied on purpose (to test a clock corrected by NTP).
public final class SimulatedWallClock: WallClock {
    private let start: Date
    private let monotonic: any GPIOClock
    private let origin: UInt64
    private let offset = Mutex<TimeInterval>(0)

    /// - Parameters:
    ///   - start: The wall time now.
    ///   - monotonic: The clock it advances with.
    public init(start: Date, monotonic: any GPIOClock) {
        self.start = start
        self.monotonic = monotonic
        origin = monotonic.nowNanoseconds
    }

    public var now: Date {
        start.addingTimeInterval(Double(monotonic.nowNanoseconds - origin) / 1e9 + offset.withLock { $0 })
    }

    /// Steps the wall clock by `seconds` (negative: back), as `timedatectl set-time` would.
    public func step(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}
