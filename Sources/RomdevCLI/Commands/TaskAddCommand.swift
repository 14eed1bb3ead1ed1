import Care
import CareStorage
import Foundation

/// `romdev task add`: adds a task with its schedule.
struct TaskAddCommand: CommandAction, Hashable {
    static let title = Option.value("title", valueName: "title", help: "A short title.")
    static let instructions = Option.value("instructions", valueName: "text", help: "What the patient is asked to do.")
    static let impactsAdherence = Option.value(
        "impacts-adherence", valueName: "bool", help: "Whether the task's events count toward adherence.",
        allowedValues: ["true", "false"], defaultValue: "true")
    static let element = Option.value(
        "element", valueName: "spec",
        help:
            "A schedule element, repeat for several: start=DATE[,end=DATE],every=N<s|m|h|d|w|mo|y>[,duration=allday|N<s|m|h>][,text=LABEL]. Times are local to the store's zone; end is exclusive; duration defaults to 1h; text comes last.",
        isRequired: true, isRepeating: true)

    static let command = Command(
        name: "add", abstract: "Add a task.",
        discussion: """
            Example:
              romdev task add stretch --title Stretch \\
                --element 'start=2026-06-07T00:00,end=2026-06-14T00:00,every=1d,duration=allday'
            """,
        arguments: [TaskCommand.id],
        options: [title, instructions, impactsAdherence, element] + StoreOptions.options,
        make: { try TaskAddCommand($0) })

    var id: String
    var title: String?
    var instructions: String?
    var impactsAdherence: Bool
    var elements: [ElementSpec]
    var store: StoreOptions

    init(_ values: ParsedValues) throws {
        id = try values.value(TaskCommand.id, TaskCommand.taskID) ?? values.required(TaskCommand.id)
        title = values.string(Self.title)
        instructions = values.string(Self.instructions)
        impactsAdherence = try values.required(Self.impactsAdherence, TaskCommand.boolean)
        elements = try values.values(Self.element) { try ElementSpec(parsing: $0) }
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let what = "could not add task '\(id)'"
        let careStore = try store.open(in: context, access: .readWrite)
        let calendar = careStore.calendar
        let schedule = try attempt(what) {
            try Schedule(composing: elements.map { try $0.element(calendar: calendar) })
        }
        let task = CareTask(
            id: id, title: title, instructions: instructions, impactsAdherence: impactsAdherence,
            schedule: schedule, createdDate: context.now())
        try attempt(what) { try careStore.addTask(task) }
        context.output.line(
            "Added task '\(id)', effective \(LocalTime.iso8601(task.effectiveDate, calendar: calendar)).")
    }
}
