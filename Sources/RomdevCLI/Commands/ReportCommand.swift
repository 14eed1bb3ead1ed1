import Care
import CareStorage
import Foundation
import LinuxSystem

/// `romdev report`: the recovery report, one HTML page for a therapist.
struct ReportCommand: CommandAction, Hashable {
    static let output = Option.value(
        "output", valueName: "file",
        help: "Write to this file, atomically; it may replace a regular file only (default, or -: standard output).")
    static let from = Option.value(
        "from", valueName: "date", help: "The first day (default: the care plan's first day).")
    static let to = Option.value(
        "to", valueName: "date", help: "The day after the last (exclusive; default: tomorrow).")

    static let command = Command(
        name: "report", abstract: "Write the recovery report: one HTML page of charts and outcomes.",
        discussion: """
            A self-contained page (inline CSS and SVG, no script, nothing fetched) that prints
            on A4: the device, limb, plan start, period and time zone; range of motion per day
            with scheduled, unscheduled and flagged results, missed days and a trend; pain and
            sleep per check-in; adherence per day; and a table of every outcome. Days are those
            of the store's time zone. 'romdev export --to DIR' writes the same page.
            """,
        options: [output, from, to] + StoreOptions.options,
        make: { try ReportCommand($0) })

    var outputPath: String?
    var firstDay: DateArgument?
    var endDay: DateArgument?
    var store: StoreOptions

    init(_ values: ParsedValues) throws {
        // `-` is standard output, as for most Unix tools, rather than a file named `-`.
        outputPath = try values.value(Self.output) { $0 == "-" ? $0 : try PathArgument.file($0) }.flatMap {
            $0 == "-" ? nil : $0
        }
        firstDay = try values.value(Self.from, DateArgument.parse)
        endDay = try values.value(Self.to, DateArgument.parse)
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let what = "could not write the report"
        if let outputPath {
            try OutputGuard.refuse(
                (outputPath, "--output"), replacing: OutputGuard.storeFiles(try store.resolve(in: context).path))
        }
        let careStore = try store.open(in: context, access: .readOnly)
        let now = context.now()
        let window = try Self.window(from: firstDay, to: endDay, store: careStore, now: now, doing: what)
        let page = try attempt(what) { try Self.page(of: careStore, window: window, now: now) }
        guard let outputPath else {
            context.output.writeData(page)
            return
        }
        try attempt("could not write \(outputPath)") { try AtomicFile.write(page, to: outputPath) }
        context.output.line("Wrote the report to \(outputPath).")
    }

    /// The page of the days in `window`.
    static func page(of store: CareStore, window: DateInterval, now: Date) throws(CareStoreError) -> String {
        RecoveryReportPage.html(try RecoveryReport.read(from: store, window: window, now: now))
    }

    /// The days reported: from `first` (default: the plan's first day, else the first outcome's
    /// day, else today) until `end` (exclusive; default: the day after today).
    static func window(
        from first: DateArgument?, to end: DateArgument?, store: CareStore, now: Date, doing what: String
    ) throws -> DateInterval {
        let calendar = store.calendar
        func day(_ argument: DateArgument) throws -> Date {
            guard let start = argument.startOfDay(in: calendar) else {
                throw CommandFailure(what, why: "the day \(argument) does not exist in \(calendar.timeZone.identifier)")
            }
            return start
        }
        let start = try first.map(day) ?? defaultStart(of: store, now: now, doing: what)
        let endDate =
            try end.map(day)
            ?? calendar.startOfDay(for: calendar.dayInterval(containing: now).end.addingTimeInterval(1))
        guard start < endDate else {
            throw CommandFailure(what, why: "the period is empty: --to must name a day after --from (the first day)")
        }
        return DateInterval(start: start, end: endDate)
    }

    private static func defaultStart(of store: CareStore, now: Date, doing what: String) throws -> Date {
        let calendar = store.calendar
        let first: Date?
        if let settings = try attempt(what, { try store.carePlanSettings() }) {
            first = settings.start
        } else {
            first = try attempt(what) { try store.fetchOutcomes().first?.outcome.eventStart }
        }
        // A plan that starts later still gives today's page.
        return calendar.startOfDay(for: min(first ?? now, now))
    }
}
