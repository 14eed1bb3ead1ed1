import Care
import CareStorage
import Foundation
import ServiceSupport

/// `romdev adherence`: adherence per day over a range of days.
struct AdherenceCommand: CommandAction, Hashable {
    static let from = Option.value("from", valueName: "date", help: "The first day.", isRequired: true)
    static let to = Option.value("to", valueName: "date", help: "The day after the last (exclusive).", isRequired: true)
    static let json = Option.flag(
        "json",
        help: "Print JSON: {time_zone, days: [{date, state, fraction}]}; state is progress, no_events or no_tasks.")

    static let command = Command(
        name: "adherence", abstract: "Show adherence per day.",
        discussion: """
            For each day: no_tasks when no task that impacts adherence is scheduled, no_events
            when such tasks are live but have no event that day, else the share of their
            events that have an outcome (CareKit's fetchAdherence).
            """,
        options: [from, to, json] + StoreOptions.options,
        make: { try AdherenceCommand($0) })

    var firstDay: DateArgument
    var endDay: DateArgument
    var asJSON: Bool
    var store: StoreOptions

    init(_ values: ParsedValues) throws {
        firstDay = try values.required(Self.from, DateArgument.parse)
        endDay = try values.required(Self.to, DateArgument.parse)
        asJSON = values.isSet(Self.json)
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let what = "could not compute adherence"
        let careStore = try store.open(in: context, access: .readOnly)
        let calendar = careStore.calendar
        guard let start = firstDay.startOfDay(in: calendar), let end = endDay.startOfDay(in: calendar) else {
            throw CommandFailure(what, why: "a day does not exist in \(calendar.timeZone.identifier)")
        }
        try CareDay.checkWindowLength(from: start, to: end, firstDay, endDay, doing: what)
        let days = try attempt(what) { try careStore.fetchAdherence(from: start, to: end) }
        if asJSON {
            context.output.write(
                JSONValue.object([
                    ("time_zone", .string(calendar.timeZone.identifier)),
                    (
                        "days",
                        .array(
                            days.map { day in
                                guard case .object(let fields) = CareOutput.json(day.adherence) else { return .null }
                                return .object([("date", .string(LocalTime.day(day.day, calendar: calendar)))] + fields)
                            })
                    ),
                ]).rendered())
            return
        }
        for day in days {
            context.output.line(LocalTime.day(day.day, calendar: calendar) + "  " + CareOutput.text(day.adherence))
        }
    }
}
