#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes log lines to standard error with a `<N>` priority prefix, which journald turns into the
/// entry's priority (`SyslogLevelPrefix=`, on by default); the unit's `SyslogIdentifier=` names
/// the source and journald adds the time, so neither is in the line.
///
/// Each message is exactly one line, written with one `write(2)`: `print()` is block-buffered on
/// a pipe and would hold lines back until exit.
public struct ServiceLogger: Sendable {
    /// Messages less severe than this are dropped.
    public var minimumLevel: LogLevel
    private let descriptor: CInt

    /// A logger writing to `descriptor` (standard error by default).
    public init(minimumLevel: LogLevel = .info, descriptor: CInt = STDERR_FILENO) {
        self.minimumLevel = minimumLevel
        self.descriptor = descriptor
    }

    /// The line written for `message`: the prefix, the message with its line breaks turned into
    /// spaces (a break would make journald start a new entry without the prefix), a newline.
    public static func line(_ level: LogLevel, _ message: String) -> String {
        "<\(level.rawValue)>" + String(message.map { $0.isNewline ? " " : $0 }) + "\n"
    }

    /// Logs `message` at `level` when `level` is at least `minimumLevel`. A failed write is
    /// dropped: there is nowhere left to report it.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level <= minimumLevel else { return }
        let bytes = Array(Self.line(level, message()).utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                return
            }
            written += result
        }
    }

    /// Logs at ``LogLevel/error``.
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    /// Logs at ``LogLevel/warning``.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at ``LogLevel/notice``.
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// Logs at ``LogLevel/info``.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at ``LogLevel/debug``.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
