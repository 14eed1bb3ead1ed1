/// A parsed, validated command ready to run: the typed form of one command line.
///
/// Actions are plain values (`CheckinAction(pain: 3, sleepHours: 7, …)`), so parse tests compare
/// them without running anything. `run` does the I/O through the context.
public protocol CommandAction {
    /// Runs the command, writing its normal output to `context.output`.
    ///
    /// - Throws: ``CommandFailure`` (or any error, reported as a failure) when the command fails;
    ///   the store is left unchanged by a failed command.
    func run(in context: CommandContext) throws
}
