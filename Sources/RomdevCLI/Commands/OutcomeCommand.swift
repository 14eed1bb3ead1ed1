/// `romdev outcome`: the group of outcome changes.
enum OutcomeCommand {
    static let command = Command(
        name: "outcome", abstract: "Change a recorded outcome.",
        subcommands: [OutcomeDeleteCommand.command])
}
