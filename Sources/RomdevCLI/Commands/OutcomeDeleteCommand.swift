import CareStorage
import Foundation

/// `romdev outcome delete`: deletes an event's outcome so it can be recorded again.
struct OutcomeDeleteCommand: CommandAction, Hashable {
    static let task = Option.value("task", valueName: "id", help: "The task.", isRequired: true)
    static let occurrence = Option.value(
        "occurrence", valueName: "n",
        help: "The event's occurrence number, as 'romdev today' and 'romdev events' show it.",
        isRequired: true)

    static let command = Command(
        name: "delete", abstract: "Delete the outcome of one event.",
        discussion: """
            The outcome is marked deleted, not erased: it no longer completes its event, and
            the event can be recorded again.
            """,
        options: [task, occurrence] + StoreOptions.options,
        make: { try OutcomeDeleteCommand($0) })

    var taskID: String
    var occurrenceIndex: Int
    var store: StoreOptions

    init(_ values: ParsedValues) throws {
        taskID = try values.required(Self.task, TaskCommand.taskID)
        occurrenceIndex = try values.required(Self.occurrence) { text -> Int? in
            guard let value = Int(text), value >= 0 else { return nil }
            return value
        }
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let careStore = try store.open(in: context, access: .readWrite)
        let deleted = try attempt("could not delete the outcome of '\(taskID)' occurrence \(occurrenceIndex)") {
            try careStore.deleteOutcome(taskID: taskID, occurrence: occurrenceIndex, now: context.now())
        }
        let calendar = careStore.calendar
        context.output.line(
            "Deleted the outcome of '\(taskID)' occurrence \(occurrenceIndex)"
                + " (event \(LocalTime.format(deleted.outcome.eventStart, calendar: calendar))).")
    }
}
