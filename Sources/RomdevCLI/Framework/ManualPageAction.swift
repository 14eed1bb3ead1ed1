import Foundation
import LinuxSystem

/// `help --man`: prints the tool's manual page in roff.
///
/// The page is dated by `SOURCE_DATE_EPOCH` when it is set, so that a package build gives the
/// same page every time (reproducible-builds.org's convention), else by today's date (UTC).
struct ManualPageAction: CommandAction {
    /// The tool whose page is printed.
    let tool: CommandLineTool

    func run(in context: CommandContext) throws {
        context.output.writeData(ManualPageGenerator(tool: tool, date: try Self.date(in: context)).page)
    }

    /// `YYYY-MM-DD` of `SOURCE_DATE_EPOCH` or of now, in UTC.
    ///
    /// - Throws: ``CommandFailure`` when `SOURCE_DATE_EPOCH` is not a whole number of seconds.
    static func date(in context: CommandContext) throws -> String {
        var instant = context.now()
        if let epoch = context.environment["SOURCE_DATE_EPOCH"] {
            guard let seconds = Int(epoch), seconds >= 0 else {
                throw CommandFailure(
                    "could not date the manual page",
                    why: "SOURCE_DATE_EPOCH '\(TerminalText.excerpt(epoch))' is not a whole number of seconds",
                    hint: "set it to the seconds since 1970-01-01 UTC, e.g. $(git log -1 --format=%ct), or unset it")
            }
            instant = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.dateComponents([.year, .month, .day], from: instant)
        return String(format: "%04d-%02d-%02d", day.year ?? 1970, day.month ?? 1, day.day ?? 1)
    }
}
