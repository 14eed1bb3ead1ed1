/// `romdev task`: the group of task changes.
enum TaskCommand {
    static let command = Command(
        name: "task", abstract: "Add, update or delete a task.",
        discussion: """
            Tasks are versioned: an update stores a new version that takes effect at its
            effective date, a delete stores a tombstone. Outcomes are never lost, and a
            deleted task's id cannot be used again.
            """,
        subcommands: [TaskAddCommand.command, TaskUpdateCommand.command, TaskDeleteCommand.command])

    /// The task id argument of every task command.
    static let id = Argument("id", help: "The task id: up to 64 letters, digits, '.', '_' and '-'.")

    /// A task id as typed: 1 to 64 letters, digits and `._-`, so it is safe in CSV, JSON
    /// and shell commands alike.
    static func taskID(_ text: String) -> String? {
        let allowed = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        return !text.isEmpty && text.utf8.count <= 64 && allowed ? text : nil
    }

    /// `true` or `false`.
    static func boolean(_ text: String) -> Bool? {
        switch text {
        case "true": true
        case "false": false
        default: nil
        }
    }
}
