import Testing

@testable import RomdevCLI

/// Verbatim help of a few commands, as swift-argument-parser's example tests pin theirs.
@Suite struct HelpSnapshotTests {
    @Test func checkinHelp() throws {
        #expect(
            try Romdev.tool.helpText(for: ["checkin"]) == """
                OVERVIEW: Record the daily check-in: pain and sleep.

                Records the outcome of the day's checkin event with two values: pain (kind
                checkin.form.pain, integer) and sleep (kind checkin.form.sleep, double, units h).
                A day has one check-in; delete it with 'romdev outcome delete' to record it again.

                USAGE: romdev checkin --pain <n> --sleep <hours> [--date <date>] [--store <path>]

                OPTIONS:
                  --pain <n>              Pain from 1 (least) to 10 (worst), a whole number.
                  --sleep <hours>         Hours of sleep last night, 0 to 12 in steps of 0.5.
                  --date <date>           The day of the check-in (default: today).
                  --store <path>          The care store file. Default: $ROMDEV_STORE, else
                                          /var/lib/romdev/care.sqlite when writable, else
                                          $XDG_DATA_HOME/romdev/care.sqlite.
                  --version               Show the version.
                  -h, --help              Show help information.

                """)
    }

    @Test func outcomeDeleteHelp() throws {
        #expect(
            try Romdev.tool.helpText(for: ["outcome", "delete"]) == """
                OVERVIEW: Delete the outcome of one event.

                The outcome is marked deleted, not erased: it no longer completes its event, and
                the event can be recorded again.

                USAGE: romdev outcome delete --task <id> --occurrence <n> [--store <path>]

                OPTIONS:
                  --task <id>             The task.
                  --occurrence <n>        The event's occurrence number, as 'romdev today' and
                                          'romdev events' show it.
                  --store <path>          The care store file. Default: $ROMDEV_STORE, else
                                          /var/lib/romdev/care.sqlite when writable, else
                                          $XDG_DATA_HOME/romdev/care.sqlite.
                  --version               Show the version.
                  -h, --help              Show help information.

                """)
    }

    @Test func topLevelHelpListsCommandsAndExitCodes() throws {
        let help = try Romdev.tool.helpText(for: [])
        #expect(
            help.contains(
                """
                USAGE: romdev <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  init                    Create the care store and the Recover care plan.
                  onboard                 Record consent and complete onboarding.
                  checkin                 Record the daily check-in: pain and sleep.
                """))
        #expect(help.contains("64    Usage error"))
        #expect(help.hasSuffix("  See 'romdev help <subcommand>' for detailed help.\n"))
    }
}
