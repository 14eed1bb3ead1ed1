/// A command that was understood but failed: a refused value, an unknown task, a store that
/// cannot be opened. Reported on stderr as `Error: <what failed>: <why>`, then `Hint: <what to do>`
/// when there is something to do, exit status 1 (or ``exitStatus``).
public struct CommandFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed, e.g. "could not record the check-in".
    public var what: String
    /// Why, e.g. "pain must be a whole number from 1 to 10, got 11"; nil when `what` says it all.
    public var why: String?
    /// What the user can do about it; nil when there is nothing useful to say.
    public var hint: String?
    /// The process's exit status: 1, or a sysexits.h code where a caller acts on it (78,
    /// `EX_CONFIG`, for a configuration file the daemon cannot use).
    public var exitStatus: Int32

    /// Creates a failure.
    public init(_ what: String, why: String? = nil, hint: String? = nil, exitStatus: Int32 = 1) {
        self.what = what
        self.why = why
        self.hint = hint
        self.exitStatus = exitStatus
    }

    /// `what: why`, or `what`.
    public var description: String {
        why.map { "\(what): \($0)" } ?? what
    }

    /// The text printed on stderr for any error a command throws: a ``CommandFailure`` with its hint,
    /// any other error as `Error: <description>`.
    public static func report(for error: any Error) -> String {
        guard let failure = error as? CommandFailure else { return "Error: \(error)\n" }
        var text = "Error: \(failure)\n"
        if let hint = failure.hint { text += "Hint: \(hint)\n" }
        return text
    }
}

/// An error that knows what the user can do about it.
public protocol HintedError: Error {
    /// What to do, or nil.
    var hint: String? { get }
}

/// Runs `body`, turning any error other than a ``CommandFailure`` into one that says `what` failed,
/// why (the error's description) and, for a ``HintedError``, what to do.
///
/// - Parameter what: What the body does, phrased as a failure: "could not record the check-in".
@discardableResult
public func attempt<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let failure as CommandFailure {
        throw failure
    } catch {
        throw CommandFailure(what(), why: "\(error)", hint: (error as? HintedError)?.hint)
    }
}
