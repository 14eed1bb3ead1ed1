import Foundation

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

    /// Creates a context.
    public init(environment: [String: String], now: @escaping () -> Date, defaultTimeZone: TimeZone, output: TextOutput) {
        self.environment = environment
        self.now = now
        self.defaultTimeZone = defaultTimeZone
        self.output = output
    }

    /// The context of this process: its environment, the system clock and time zone, and stdout.
    public static func process() -> CommandContext {
        CommandContext(
            environment: ProcessInfo.processInfo.environment, now: { Date() },
            defaultTimeZone: TimeZone.current, output: .standardOutput)
    }
}
