import Care
import CareStorage
import Foundation
import LinuxSystem
import ServiceSupport

/// `romdev export`: every outcome, for analysis.
struct ExportCommand: CommandAction, Hashable {
    static let format = Option.value(
        "format", valueName: "format", help: "The file format (required without --to).", allowedValues: ["csv", "json"])
    static let output = Option.value(
        "output", valueName: "file",
        help: "Write to this file, atomically; it may replace a regular file only (default, or -: standard output).")
    static let to = Option.value(
        "to", valueName: "dir",
        help:
            "Write both formats and the report as new files in this directory, e.g. a USB stick, and tell a running daemon."
    )

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

            --to DIR writes romdev-<device id>-<UTC time>.csv, .json and .html (the page of
            'romdev report', the whole plan) into DIR, each
            complete or not at all, never replacing a file (a second export in the same
            second gets a -2 suffix); then, when the romdev daemon runs, it tells the daemon,
            which signals that the export is done.
            """,
        options: [format, output, to] + StoreOptions.options,
        make: { try ExportCommand($0) })

    enum Destination: Hashable {
        case standardOutput(asJSON: Bool)
        case file(String, asJSON: Bool)
        case directory(String)
    }

    var destination: Destination
    var store: StoreOptions

    init(_ values: ParsedValues) throws {
        store = try StoreOptions(values)
        if let directory = try values.value(Self.to, PathArgument.any) {
            guard values.string(Self.format) == nil, values.string(Self.output) == nil else {
                throw UsageError("--to writes both formats; leave out '--format' and '--output'")
            }
            destination = .directory(directory)
            return
        }
        let asJSON = try values.required(Self.format) { $0 } == "json"
        // `-` is standard output, as for most Unix tools, rather than a file named `-`.
        let output = try values.value(Self.output) { $0 == "-" ? $0 : try PathArgument.file($0) }
        destination = output.flatMap { $0 == "-" ? nil : .file($0, asJSON: asJSON) } ?? .standardOutput(asJSON: asJSON)
    }

    func run(in context: CommandContext) throws {
        if case .file(let path, _) = destination {
            try OutputGuard.refuse(
                (path, "--output"), replacing: OutputGuard.storeFiles(try store.resolve(in: context).path))
        }
        let careStore = try store.open(in: context, access: .readOnly)
        let calendar = careStore.calendar
        let (outcomes, metadata) = try attempt("could not export the outcomes") {
            (try careStore.fetchOutcomes(), try careStore.storeMetadata())
        }
        let json = {
            JSONValue.object([
                ("device_id", .string(metadata.deviceID.uuidString)),
                ("time_zone", .string(calendar.timeZone.identifier)),
                ("outcomes", .array(outcomes.map { CareOutput.json($0, calendar: calendar) })),
            ]).rendered()
        }
        let csv = { OutcomeTable.csv(outcomes, deviceID: metadata.deviceID, calendar: calendar) }
        let now = context.now()
        switch destination {
        case .standardOutput(let asJSON):
            context.output.writeData(asJSON ? json() : csv())
        case let .file(path, asJSON):
            try attempt("could not write \(path)") { try AtomicFile.write(asJSON ? json() : csv(), to: path) }
            context.output.line("Exported \(outcomes.count) outcomes to \(path).")
        case .directory(let directory):
            let baseName = Self.baseName(deviceID: metadata.deviceID, at: now)
            let window = try ReportCommand.window(
                from: nil, to: nil, store: careStore, now: now, doing: "could not export the report")
            let names = try attempt("could not export to \(directory)") {
                let report = try ReportCommand.page(of: careStore, window: window, now: now)
                return try AtomicFile.createNew(
                    [("csv", csv()), ("json", json()), ("html", report)], in: directory, baseName: baseName)
            }
            let paths = names.map { (directory.hasSuffix("/") ? directory : directory + "/") + $0 }
            context.output.line(
                "Exported \(outcomes.count) outcomes to \(paths.dropLast().joined(separator: ", ")) and \(paths.last ?? "")."
            )
            tellDaemon(files: names, in: context)
        }
    }

    /// `romdev-<device id>-<yyyyMMdd'T'HHmmss'Z'>`: sorts by time per device, and has no
    /// character that FAT file systems refuse (no colons).
    static func baseName(deviceID: UUID, at instant: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let stamp =
            String(format: "%04d", parts.year ?? 0) + two(parts.month) + two(parts.day)
            + "T" + two(parts.hour) + two(parts.minute) + two(parts.second) + "Z"
        return "romdev-\(deviceID.uuidString)-\(stamp)"
    }

    /// The daemon owns the LED and buzzer, so it gives the "done" cue. The files are already
    /// safe, so nothing here fails the export: no daemon is normal, other trouble is a note.
    private func tellDaemon(files: [String], in context: CommandContext) {
        let reply: ControlReply?
        do {
            reply = try DaemonControl(environment: context.environment).sendIfRunning(.exportDone(files: files))
        } catch {
            context.output.line("Note: the daemon was not told: \(error)")
            return
        }
        if let reply, reply.status != .ok {
            context.output.line("Note: the daemon did not confirm the export: \(reply.message)")
        }
    }
}
