import Care
import CareStorage
import Foundation
import LinuxSystem
import ServiceSupport

/// `romdev tasks`: the current version of every task.
struct TasksCommand: CommandAction, Hashable {
    static let json = Option.flag(
        "json",
        help:
            "Print JSON: [{id, uuid, version, title, instructions, impacts_adherence, effective, created, updated, elements: [{start, end, every, duration, text, spec}]}]."
    )

    static let command = Command(
        name: "tasks", abstract: "List the current version of each task.",
        discussion: """
            Each schedule element is also printed as an --element spec, as 'romdev task add'
            and 'romdev task update' take it.
            """,
        options: [json] + StoreOptions.options,
        make: { try TasksCommand($0) })

    var asJSON: Bool
    var store: StoreOptions

    init(asJSON: Bool, store: StoreOptions) {
        self.asJSON = asJSON
        self.store = store
    }

    init(_ values: ParsedValues) throws {
        asJSON = values.isSet(Self.json)
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let what = "could not list the tasks"
        let careStore = try store.open(in: context, access: .readOnly)
        let calendar = careStore.calendar
        let tasks = try attempt(what) { try careStore.fetchTasks(TaskQuery()) }
        let versions = try attempt(what) { try tasks.map { try careStore.fetchTaskVersions(id: $0.id).versions.count } }
        let time = { (date: Date) in LocalTime.iso8601(date, calendar: calendar) }

        if asJSON {
            context.output.write(
                JSONValue.array(
                    zip(tasks, versions).map { task, version in
                        .object([
                            ("id", .string(task.id)),
                            ("uuid", .string(task.uuid.uuidString)),
                            ("version", .int(version)),
                            ("title", .string(task.title)),
                            ("instructions", .string(task.instructions)),
                            ("impacts_adherence", .bool(task.impactsAdherence)),
                            ("effective", .string(time(task.effectiveDate))),
                            ("created", .string(time(task.createdDate))),
                            ("updated", .string(task.updatedDate.map(time))),
                            (
                                "elements",
                                .array(
                                    task.schedule.elements.map { element in
                                        .object([
                                            ("start", .string(time(element.start))),
                                            ("end", .string(element.end.map(time))),
                                            ("every", .string("\(element.interval)")),
                                            ("duration", .string(ElementSpec.formatDuration(element.duration))),
                                            ("text", .string(element.text)),
                                            ("spec", .string(ElementSpec.format(element, calendar: calendar))),
                                        ])
                                    })
                            ),
                        ])
                    }
                ).rendered())
            return
        }
        if tasks.isEmpty { context.output.line("No tasks.") }
        for (task, version) in zip(tasks, versions) {
            context.output.line("\(task.id)  \(TerminalText.inline(task.title ?? ""))")
            context.output.line(
                "  version \(version), effective \(time(task.effectiveDate)),"
                    + " \(task.impactsAdherence ? "impacts adherence" : "does not impact adherence")")
            if let instructions = task.instructions { context.output.line("  " + TerminalText.inline(instructions)) }
            for element in task.schedule.elements {
                context.output.line("  --element '\(ElementSpec.format(element, calendar: calendar))'")
            }
        }
    }
}
