/// A log line's priority, as the syslog number journald reads from a `<N>` prefix (sd-daemon(3)).
///
/// Used the same way everywhere:
/// - ``error``: something failed and needs a person (the store cannot be written, a bad
///   configuration key, a measurement that failed).
/// - ``warning``: degraded but carrying on (sensor missing and retried, clock not trusted,
///   a control request refused).
/// - ``notice``: normal but significant (started, ready, stopping, an outcome stored, an export).
/// - ``info``: routine events (a reminder chimed, a button press, a control request served).
/// - ``debug``: detail for diagnosing (edges, timings, raw values); off unless asked for.
public enum LogLevel: Int32, Comparable, CaseIterable, Sendable, CustomStringConvertible {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    /// A smaller syslog number is more severe, so `.error < .debug`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The name accepted by ``init?(name:)``: `error`, `warning`, `notice`, `info`, `debug`.
    public var description: String {
        switch self {
        case .error: return "error"
        case .warning: return "warning"
        case .notice: return "notice"
        case .info: return "info"
        case .debug: return "debug"
        }
    }

    /// The level named `name` (as in a configuration file), or nil.
    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = level
    }
}
