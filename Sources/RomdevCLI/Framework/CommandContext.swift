import Foundation
import Sensor

/// What a running command may use of the outside world: the environment, the clock and standard
/// output. Tests inject all three, so commands never read `Date()` or the process environment.
public struct CommandContext {
    /// Environment variables, e.g. `ROMDEV_STORE`, `XDG_DATA_HOME`, `HOME`.
    public var environment: [String: String]
    /// The current instant.
    public var now: () -> Date
    /// The time zone used when neither the command line nor the store names one.
    public var defaultTimeZone: TimeZone
    /// Where normal output goes.
    public var output: TextOutput
    /// The monotonic clock the simulated sensor runs on, or nil for real time (the system clock
    /// and a Dispatch timer). Tests pass a `ManualClock`, so a simulated session takes
    /// milliseconds instead of its real duration.
    public var sensorClock: (any MonotonicClock)?

    /// Creates a context.
    public init(
        environment: [String: String], now: @escaping () -> Date, defaultTimeZone: TimeZone, output: TextOutput,
        sensorClock: (any MonotonicClock)? = nil
    ) {
        self.environment = environment
        self.now = now
        self.defaultTimeZone = defaultTimeZone
        self.output = output
        self.sensorClock = sensorClock
    }

    /// The context of this process: its environment, the system clock and time zone, and stdout.
    public static func process() -> CommandContext {
        CommandContext(
            environment: ProcessInfo.processInfo.environment, now: { Date() },
            defaultTimeZone: TimeZone.current, output: .standardOutput)
    }
}
