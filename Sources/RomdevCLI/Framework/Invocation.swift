/// What a command line asks for, decided without running anything.
public enum Invocation {
    /// Print this help text on stdout and exit 0 (`--help`, `-h`, `help <command>`, or a group alone).
    case help(String)
    /// Print this version on stdout and exit 0 (`--version`).
    case version(String)
    /// Run this action.
    case run(any CommandAction)
}
