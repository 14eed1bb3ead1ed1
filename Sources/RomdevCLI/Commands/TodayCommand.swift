import Care
import CareStorage
import Foundation
import LinuxSystem
import ServiceSupport

/// `romdev today`: the care feed for one day.
struct TodayCommand: CommandAction, Hashable {
    static let date = Option.value("date", valueName: "date", help: "The day to show (default: today).")
    static let json = Option.flag(
        "json",
        help:
            "Print JSON: {date, time_zone, onboarding_done, tasks: [{id, title, instructions, impacts_adherence, events: [{occurrence, start, end, all_day, text, outcome}]}], adherence: {state, fraction}}."
    )

    static let command = Command(
        name: "today", abstract: "Show the care feed and adherence of a day.",
        discussion: """
            Lists each task with an event that day (CareKit's task query with
            excludesTasksWithNoEvents), each event's occurrence, window and outcome, and the
            day's adherence: the share of events with an outcome among tasks that impact
            adherence, as a fraction and a bar. Until onboarding is done only onboarding is
            shown; afterwards onboarding is left out. Then the range-of-motion trend up to that
            day: the first and last of the latest five clean measurements, scheduled or not.
            """,
        options: [date, json] + StoreOptions.options,
        make: { try TodayCommand($0) })

    var day: DateArgument?
    var asJSON: Bool
    var store: StoreOptions

    init(day: DateArgument?, asJSON: Bool, store: StoreOptions) {
        self.day = day
        self.asJSON = asJSON
        self.store = store
    }

    init(_ values: ParsedValues) throws {
        day = try values.value(Self.date, DateArgument.parse)
        asJSON = values.isSet(Self.json)
        store = try StoreOptions(values)
    }

    /// One task of the feed with its events that day.
    struct Card {
        var task: CareTask
        var events: [Event]
    }

    func run(in context: CommandContext) throws {
        let what = "could not read the care feed"
        let careStore = try store.open(in: context, access: .readOnly)
        let calendar = careStore.calendar
        let interval = try CareDay.interval(day, now: context.now(), calendar: calendar)
        let onboardingDone = try attempt(what) { !(try careStore.isOnboardingPending()) }
        let onboarding = RecoverCarePlan.TaskID.onboarding
        let tasks = try attempt(what) {
            try careStore.fetchTasks(
                TaskQuery(forDayContaining: interval.start, calendar: calendar, excludesTasksWithNoEvents: true))
        }.filter { onboardingDone ? $0.id != onboarding : $0.id == onboarding }
        let events =
            tasks.isEmpty
            ? []
            : try attempt(what) {
                try careStore.fetchEvents(taskIDs: tasks.map(\.id), from: interval.start, to: interval.end)
            }
        let cards = tasks.map { task in Card(task: task, events: events.filter { $0.task.id == task.id }) }
        let adherence =
            try attempt(what) {
                try careStore.fetchAdherence(from: interval.start, to: interval.end)
            }.first?.adherence ?? .noTasks

        if asJSON {
            context.output.write(
                JSONValue.object([
                    ("date", .string(LocalTime.day(interval.start, calendar: calendar))),
                    ("time_zone", .string(calendar.timeZone.identifier)),
                    ("onboarding_done", .bool(onboardingDone)),
                    (
                        "tasks",
                        .array(
                            cards.map { card in
                                .object([
                                    ("id", .string(card.task.id)),
                                    ("title", .string(card.task.title)),
                                    ("instructions", .string(card.task.instructions)),
                                    ("impacts_adherence", .bool(card.task.impactsAdherence)),
                                    ("events", .array(card.events.map { CareOutput.json($0, calendar: calendar) })),
                                ])
                            })
                    ),
                    ("adherence", CareOutput.json(adherence)),
                ]).rendered())
            return
        }
        let out = context.output
        out.line("Care feed for \(LocalTime.day(interval.start, calendar: calendar)) (\(calendar.timeZone.identifier))")
        if !onboardingDone { out.line("Onboarding is not done yet: only onboarding is shown.") }
        out.line()
        if cards.isEmpty { out.line("Nothing scheduled.") }
        for card in cards {
            out.line("\(TerminalText.inline(card.task.title ?? card.task.id)) [\(card.task.id)]")
            if !onboardingDone, let instructions = card.task.instructions {
                out.line("  " + TerminalText.inline(instructions))
            }
            for event in card.events {
                out.line("  " + CareOutput.line(event, calendar: calendar, showDay: false))
            }
        }
        out.line()
        out.line("Adherence: " + CareOutput.text(adherence))
        if let trend = try attempt(what, { try RangeOfMotionGlance.line(store: careStore, before: interval.end) }) {
            out.line(trend)
        }
        if !onboardingDone { out.line("Next: romdev onboard --consent-by NAME") }
    }
}
