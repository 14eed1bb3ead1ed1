import Care
import CareStorage
import Foundation

/// `romdev task update`: stores a new version of a task.
struct TaskUpdateCommand: CommandAction, Hashable {
    static let element = Option.value(
        "element", valueName: "spec",
        help:
            "A schedule element as for 'task add'; repeat for several. When given, the elements replace the whole schedule.",
        isRepeating: true)
    static let impactsAdherence = Option.value(
        "impacts-adherence", valueName: "bool", help: "Whether the task's events count toward adherence.",
        allowedValues: ["true", "false"])
    static let effective = Option.value(
        "effective", valueName: "date",
        help:
            "When the new version takes effect (default: now). It must be after the start of every event that has an outcome."
    )

    static let command = Command(
        name: "update", abstract: "Store a new version of a task.",
        discussion: """
            Options left out keep the current version's value. The new version owns the
            events from its effective date on; earlier events and their outcomes stay with
            the older versions.
            """,
        arguments: [TaskCommand.id],
        options: [TaskAddCommand.title, TaskAddCommand.instructions, impactsAdherence, element, effective]
            + StoreOptions.options,
        make: { try TaskUpdateCommand($0) })

    var id: String
    var title: String?
    var instructions: String?
    var impactsAdherence: Bool?
    var elements: [ElementSpec]
    var effective: DateArgument?
    var store: StoreOptions

    init(_ values: ParsedValues) throws {
        id = try values.value(TaskCommand.id, TaskCommand.taskID) ?? values.required(TaskCommand.id)
        title = values.string(TaskAddCommand.title)
        instructions = values.string(TaskAddCommand.instructions)
        impactsAdherence = try values.value(Self.impactsAdherence, TaskCommand.boolean)
        elements = try values.values(Self.element) { try ElementSpec(parsing: $0) }
        effective = try values.value(Self.effective, DateArgument.parse)
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let what = "could not update task '\(id)'"
        let careStore = try store.open(in: context, access: .readWrite)
        let calendar = careStore.calendar
        let now = context.now()
        var task = try attempt(what) { try careStore.fetchTaskVersions(id: id).head }
        if let title { task.title = title }
        if let instructions { task.instructions = instructions }
        if let impactsAdherence { task.impactsAdherence = impactsAdherence }
        if !elements.isEmpty {
            task.schedule = try attempt(what) {
                try Schedule(composing: elements.map { try $0.element(calendar: calendar) })
            }
        }
        task.effectiveDate = try effective.map { try CareDay.instant($0, calendar: calendar, doing: what) } ?? now
        let updated = try attempt(what) { try careStore.updateTask(task, now: now) }
        let versions = try attempt(what) { try careStore.fetchTaskVersions(id: id).versions.count }
        context.output.line(
            "Updated task '\(id)': version \(versions), effective \(LocalTime.iso8601(updated.effectiveDate, calendar: calendar))."
        )
    }
}
