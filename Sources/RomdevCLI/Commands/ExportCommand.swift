import Care
import CareStorage
import Foundation

/// `romdev export`: every outcome, for analysis.
struct ExportCommand: CommandAction, Hashable {
    static let format = Option.value("format", valueName: "format", help: "The file format.", isRequired: true, allowedValues: ["csv", "json"])
    static let output = Option.value("output", valueName: "file", help: "Write to this file, atomically (default: standard output).")

    static let command = Command(
        name: "export", abstract: "Export every outcome as CSV or JSON.",
        discussion: """
            CSV: one row per value, columns device_id, task_id, task_uuid, occurrence,
            event_start, event_end, outcome_created, value_index, kind, type, value, units,
            value_created (an outcome without values has one row with empty value columns).
            JSON: {device_id, time_zone, outcomes: [{task_id, task_uuid, occurrence,
            event_start, event_end, created, values: [{kind, type, value, units, created}]}]}.
            Times are ISO 8601 with the offset of the store's time zone. Deleted outcomes
            are left out.
            """,
        options: [format, output] + StoreOptions.options,
        make: { try ExportCommand($0) })

    var asJSON: Bool
    var outputPath: String?
    var store: StoreOptions

    init(_ values: ParsedValues) throws {
        asJSON = try values.required(Self.format) { $0 } == "json"
        outputPath = values.string(Self.output)
        store = StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let what = "could not export the outcomes"
        let careStore = try store.open(in: context)
        let calendar = careStore.calendar
        let (outcomes, metadata) = try attempt(what) { (try careStore.fetchOutcomes(), try careStore.storeMetadata()) }
        let text: String
        if asJSON {
            text = JSONValue.object([
                ("device_id", .string(metadata.deviceID.uuidString)),
                ("time_zone", .string(calendar.timeZone.identifier)),
                ("outcomes", .array(outcomes.map { CareOutput.json($0, calendar: calendar) })),
            ]).rendered()
        } else {
            text = OutcomeTable.csv(outcomes, deviceID: metadata.deviceID, calendar: calendar)
        }
        guard let outputPath else {
            context.output.write(text)
            return
        }
        try attempt("could not write \(outputPath)") { try AtomicFile.write(text, to: outputPath) }
        context.output.line("Exported \(outcomes.count) outcomes to \(outputPath).")
    }
}
