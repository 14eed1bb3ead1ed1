import Care
import CareStorage
import Foundation
import ServiceSupport

/// `romdev events`: a task's events in a window, with their outcomes.
struct EventsCommand: CommandAction, Hashable {
    static let task = Option.value("task", valueName: "id", help: "The task.", isRequired: true)
    static let from = Option.value(
        "from", valueName: "date", help: "Start of the window, inclusive (compared with event ends).", isRequired: true)
    static let to = Option.value(
        "to", valueName: "date", help: "End of the window, exclusive (compared with event starts).", isRequired: true)
    static let json = Option.flag(
        "json",
        help: "Print JSON: {task_id, from, to, events: [{task_uuid, occurrence, start, end, all_day, text, outcome}]}.")

    static let command = Command(
        name: "events", abstract: "List a task's events and outcomes in a window.",
        discussion: """
            CareKit's rule: an event is listed when it ends at or after --from and starts
            before --to. A date without a time means its midnight. Each event comes from the
            task version that owns it; occurrence numbers belong to that version's schedule.
            """,
        options: [task, from, to, json] + StoreOptions.options,
        make: { try EventsCommand($0) })

    var taskID: String
    var start: DateArgument
    var end: DateArgument
    var asJSON: Bool
    var store: StoreOptions

    init(_ values: ParsedValues) throws {
        taskID = try values.required(Self.task, TaskCommand.taskID)
        start = try values.required(Self.from, DateArgument.parse)
        end = try values.required(Self.to, DateArgument.parse)
        asJSON = values.isSet(Self.json)
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let what = "could not list the events of '\(taskID)'"
        let careStore = try store.open(in: context, access: .readOnly)
        let calendar = careStore.calendar
        let (from, to) = try Self.window(start, end, calendar: calendar, doing: what)
        let events = try attempt(what) { try careStore.fetchEvents(taskID: taskID, from: from, to: to) }
        if asJSON {
            context.output.write(
                JSONValue.object([
                    ("task_id", .string(taskID)),
                    ("from", .string(LocalTime.iso8601(from, calendar: calendar))),
                    ("to", .string(LocalTime.iso8601(to, calendar: calendar))),
                    ("events", .array(events.map { CareOutput.json($0, calendar: calendar) })),
                ]).rendered())
            return
        }
        if events.isEmpty { context.output.line("No events.") }
        for event in events {
            context.output.line(CareOutput.line(event, calendar: calendar, showDay: true))
        }
    }

    /// The instants of a `--from`/`--to` pair, which must be in order and at most
    /// `CareStore.maximumQueryDays` apart.
    static func window(_ start: DateArgument, _ end: DateArgument, calendar: Calendar, doing what: String) throws -> (
        Date, Date
    ) {
        let from = try CareDay.instant(start, calendar: calendar, doing: what)
        let to = try CareDay.instant(end, calendar: calendar, doing: what)
        try CareDay.checkWindowLength(from: from, to: to, start, end, doing: what)
        return (from, to)
    }
}
