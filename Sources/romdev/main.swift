import Foundation
import RomdevCLI

// Parse, run, and turn the outcome into output and an exit status: 0 for success, help and
// version; 64 (EX_USAGE) for a command line that cannot be run; 1 for a command that failed,
// unless the failure names its own status (78, EX_CONFIG, for an unusable configuration file).
let context = CommandContext.process()
do {
    switch try Romdev.tool.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help(let text):
        context.output.write(text)
    case .version(let version):
        context.output.line(version)
    case .run(let action):
        try action.run(in: context)
    }
    exit(0)
} catch let error as UsageError {
    TextOutput.standardError.write(error.report)
    exit(64)
} catch {
    TextOutput.standardError.write(CommandFailure.report(for: error))
    exit((error as? CommandFailure)?.exitStatus ?? 1)
}
