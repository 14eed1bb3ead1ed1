import CareStorage
import Foundation

/// `romdev task delete`: deletes a task, keeping its history.
struct TaskDeleteCommand: CommandAction, Hashable {
    static let command = Command(
        name: "delete", abstract: "Delete a task (its versions and outcomes are kept).",
        arguments: [TaskCommand.id],
        options: StoreOptions.options,
        make: { try TaskDeleteCommand($0) })

    var id: String
    var store: StoreOptions

    init(_ values: ParsedValues) throws {
        id = try values.value(TaskCommand.id, TaskCommand.taskID) ?? values.required(TaskCommand.id)
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let careStore = try store.open(in: context, access: .readWrite)
        try attempt("could not delete task '\(id)'") { try careStore.deleteTask(id: id, now: context.now()) }
        context.output.line("Deleted task '\(id)'; its versions and outcomes are kept.")
    }
}
