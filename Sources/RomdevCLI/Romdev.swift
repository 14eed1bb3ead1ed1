/// The `romdev` command line: its command table, version and top-level help.
public enum Romdev {
    /// The version printed by `romdev --version`.
    public static let version = "0.1.0"

    /// Every command, in the order `romdev --help` lists them. Adding a command is one file in
    /// `Commands/` defining a ``Command`` plus one line here.
    public static let commands: [Command] = [
        InitCommand.command,
        OnboardCommand.command,
        CheckinCommand.command,
        TodayCommand.command,
        TasksCommand.command,
        TaskCommand.command,
        EventsCommand.command,
        OutcomesCommand.command,
        OutcomeCommand.command,
        AdherenceCommand.command,
        ExportCommand.command,
        ReportCommand.command,
        DaemonCommand.command,
        .doctor,
        .record,
        .replay,
        .measure,
        .calibrate,
    ]

    /// The whole tool.
    public static let tool = CommandLineTool(
        root: Command(
            name: "romdev",
            abstract: "Knee range-of-motion appliance: the care plan, its store and the sensor.",
            discussion: """
                The care commands work on one care store, a SQLite file shared with the romdev
                daemon. The store is --store PATH, else $ROMDEV_STORE, else
                /var/lib/romdev/care.sqlite when that directory is writable, else
                $XDG_DATA_HOME/romdev/care.sqlite (XDG_DATA_HOME defaults to ~/.local/share).

                Dates are ISO 8601 (2026-06-07, 2026-06-07T08:00, or with an offset); times
                without an offset are local times in the store's time zone.

                EXIT CODES:
                  0     Success, help or version.
                  1     The command failed: a refused value, an unknown task, a store error, a
                        file that cannot be read or replaced, a malformed recording or
                        calibration file.
                  64    Usage error: unknown option, missing or malformed argument (EX_USAGE).
                  78    Configuration error (EX_CONFIG): the daemon's configuration file (the
                        message names the file, the line and the key), or a $ROMDEV_STORE that
                        names no store file.
                """,
            subcommands: commands),
        version: version, manual: manual)
}
