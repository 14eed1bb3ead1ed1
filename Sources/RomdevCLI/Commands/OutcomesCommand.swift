import Care
import CareStorage
import Foundation
import ServiceSupport

/// `romdev outcomes`: the recorded outcomes, optionally of one task and in a window.
struct OutcomesCommand: CommandAction, Hashable {
    static let task = Option.value("task", valueName: "id", help: "Only this task's outcomes.")
    static let from = Option.value(
        "from", valueName: "date", help: "Only outcomes whose event ends at or after this date.")
    static let to = Option.value(
        "to", valueName: "date", help: "Only outcomes whose event starts before this date (exclusive).")
    static let json = Option.flag(
        "json",
        help:
            "Print JSON: [{task_id, task_uuid, occurrence, event_start, event_end, created, values: [{kind, type, value, units, created}]}]."
    )
    static let csv = Option.flag(
        "csv", help: "Print CSV, one row per value, with the columns of 'romdev export --format csv'.")

    static let command = Command(
        name: "outcomes", abstract: "List recorded outcomes.",
        options: [task, from, to, json, csv] + StoreOptions.options,
        make: { try OutcomesCommand($0) })

    enum Format: Hashable { case text, json, csv }

    var taskID: String?
    var start: DateArgument?
    var end: DateArgument?
    var format: Format
    var store: StoreOptions

    init(_ values: ParsedValues) throws {
        taskID = try values.value(Self.task, TaskCommand.taskID)
        start = try values.value(Self.from, DateArgument.parse)
        end = try values.value(Self.to, DateArgument.parse)
        switch (values.isSet(Self.json), values.isSet(Self.csv)) {
        case (true, true): throw UsageError("Use only one of '--json' and '--csv'")
        case (true, false): format = .json
        case (false, true): format = .csv
        case (false, false): format = .text
        }
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let what = "could not list the outcomes"
        let careStore = try store.open(in: context, access: .readOnly)
        let calendar = careStore.calendar
        if let taskID {
            _ = try attempt(what) { try careStore.fetchTaskVersions(id: taskID) }
        }
        var interval: DateInterval?
        if start != nil || end != nil {
            let from = try start.map { try CareDay.instant($0, calendar: calendar, doing: what) } ?? .distantPast
            let to = try end.map { try CareDay.instant($0, calendar: calendar, doing: what) } ?? .distantFuture
            guard from < to else { throw CommandFailure(what, why: "--to must be after --from") }
            interval = DateInterval(start: from, end: to)
        }
        let outcomes = try attempt(what) {
            try careStore.fetchOutcomes(OutcomeQuery(taskIDs: taskID.map { [$0] } ?? [], dateInterval: interval))
        }
        switch format {
        case .json:
            context.output.write(JSONValue.array(outcomes.map { CareOutput.json($0, calendar: calendar) }).rendered())
        case .csv:
            let deviceID = try attempt(what) { try careStore.storeMetadata().deviceID }
            context.output.writeData(OutcomeTable.csv(outcomes, deviceID: deviceID, calendar: calendar))
        case .text:
            if outcomes.isEmpty { context.output.line("No outcomes.") }
            for stored in outcomes {
                let outcome = stored.outcome
                context.output.line(
                    "\(stored.taskID) #\(outcome.taskOccurrenceIndex)  \(LocalTime.format(outcome.eventStart, calendar: calendar))  "
                        + CareOutput.summary(outcome.values, calendar: calendar)
                        + "  (recorded \(LocalTime.iso8601(outcome.createdDate, calendar: calendar)))")
            }
        }
    }
}
