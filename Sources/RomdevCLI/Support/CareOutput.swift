import Care
import CareStorage
import Foundation
import LinuxSystem
import ServiceSupport

/// The JSON and text forms of care values shared by the commands, with the field names the
/// README documents.
enum CareOutput {
    /// `{"kind", "type", "value", "units", "created"}`.
    static func json(_ value: OutcomeValue, calendar: Calendar) -> JSONValue {
        .object([
            ("kind", .string(value.kind)),
            ("type", .string(value.typeName)),
            ("value", json(value.value, calendar: calendar)),
            ("units", .string(value.units)),
            ("created", .string(LocalTime.iso8601(value.createdDate, calendar: calendar))),
        ])
    }

    static func json(_ value: OutcomeValue.Value, calendar: Calendar) -> JSONValue {
        switch value {
        case .integer(let v): .int(v)
        case .double(let v): .double(v)
        case .boolean(let v): .bool(v)
        case .text(let v): .string(v)
        case .date(let v): .string(LocalTime.iso8601(v, calendar: calendar))
        }
    }

    /// The value as text for CSV and people: `3`, `7.5`, `true`, the text, or an ISO 8601 date.
    static func text(_ value: OutcomeValue.Value, calendar: Calendar) -> String {
        switch value {
        case .integer(let v): String(v)
        case .double(let v): v.rounded() == v && abs(v) < 1e15 ? String(Int(v)) : String(v)
        case .boolean(let v): v ? "true" : "false"
        case .text(let v): v
        case .date(let v): LocalTime.iso8601(v, calendar: calendar)
        }
    }

    /// `pain 3, sleep 7 h`: each value as its kind's last word, the value and its units.
    static func summary(_ values: [OutcomeValue], calendar: Calendar) -> String {
        guard !values.isEmpty else { return "no values" }
        return values.map { value in
            var parts: [String] = []
            if let kind = value.kind { parts.append(kind.split(separator: ".").last.map(String.init) ?? kind) }
            parts.append(TerminalText.inline(text(value.value, calendar: calendar)))
            if let units = value.units { parts.append(units) }
            return parts.joined(separator: " ")
        }.joined(separator: ", ")
    }

    /// An event window for people: `08:00–09:00` or `all day` when it spans its whole local day.
    static func window(_ event: ScheduleEvent, calendar: Calendar) -> String {
        if event.element.duration == .allDay { return "all day" }
        let sameDay = calendar.isDate(event.start, inSameDayAs: event.end)
        let end =
            sameDay
            ? LocalTime.timeOfDay(event.end, calendar: calendar) : LocalTime.format(event.end, calendar: calendar)
        return LocalTime.timeOfDay(event.start, calendar: calendar) + "–" + end
    }

    /// The outcome object of an event or an outcome listing:
    /// `{"task_id", "occurrence", "event_start", "event_end", "created", "values"}`.
    static func json(_ stored: StoredOutcome, calendar: Calendar) -> JSONValue {
        let outcome = stored.outcome
        return .object([
            ("task_id", .string(stored.taskID)),
            ("task_uuid", .string(outcome.taskUUID.uuidString)),
            ("occurrence", .int(outcome.taskOccurrenceIndex)),
            ("event_start", .string(LocalTime.iso8601(outcome.eventStart, calendar: calendar))),
            ("event_end", .string(LocalTime.iso8601(outcome.eventEnd, calendar: calendar))),
            ("created", .string(LocalTime.iso8601(outcome.createdDate, calendar: calendar))),
            ("values", .array(outcome.values.map { json($0, calendar: calendar) })),
        ])
    }

    /// An event with its outcome: `{"task_uuid", "occurrence", "start", "end", "all_day", "text",
    /// "outcome"}`, `outcome` null when the event has none.
    static func json(_ event: Event, calendar: Calendar) -> JSONValue {
        let scheduleEvent = event.scheduleEvent
        return .object([
            ("task_uuid", .string(event.task.uuid.uuidString)),
            ("occurrence", .int(scheduleEvent.occurrence)),
            ("start", .string(LocalTime.iso8601(scheduleEvent.start, calendar: calendar))),
            ("end", .string(LocalTime.iso8601(scheduleEvent.end, calendar: calendar))),
            ("all_day", .bool(scheduleEvent.element.duration == .allDay)),
            ("text", .string(scheduleEvent.element.text)),
            (
                "outcome",
                event.outcome.map {
                    json(StoredOutcome(taskID: event.task.id, outcome: $0), calendar: calendar)
                } ?? .null
            ),
        ])
    }

    /// One line for people: `#3  08:00–09:00  done: pain 3, sleep 7 h` or `… not done`.
    static func line(_ event: Event, calendar: Calendar, showDay: Bool) -> String {
        let scheduleEvent = event.scheduleEvent
        var when = CareOutput.window(scheduleEvent, calendar: calendar)
        if showDay { when = LocalTime.day(scheduleEvent.start, calendar: calendar) + " " + when }
        let state = event.outcome.map { "done: " + summary($0.values, calendar: calendar) } ?? "not done"
        return "#\(scheduleEvent.occurrence)".padded(toWidth: 5)
            + " " + when.padded(toWidth: showDay ? 24 : 13) + " " + state
    }

    /// `{"state": "progress", "fraction": 0.5}`; fraction null for `no_tasks` and `no_events`.
    static func json(_ adherence: Adherence) -> JSONValue {
        switch adherence {
        case .noTasks: .object([("state", .string("no_tasks")), ("fraction", .null)])
        case .noEvents: .object([("state", .string("no_events")), ("fraction", .null)])
        case .progress(let fraction): .object([("state", .string("progress")), ("fraction", .double(fraction))])
        }
    }

    /// `0.60 [######----] 60%`, `no tasks`, `no events`.
    static func text(_ adherence: Adherence) -> String {
        switch adherence {
        case .noTasks: "no tasks"
        case .noEvents: "no events"
        case .progress(let fraction): String(format: "%.2f ", fraction) + bar(fraction)
        }
    }

    /// `[######----] 60%`: ten cells, each a tenth, rounded down so a bar is full only at 100%.
    static func bar(_ fraction: Double) -> String {
        let clamped = min(max(fraction, 0), 1)
        let filled = Int((clamped * 10).rounded(.down))
        let percent = Int((clamped * 100).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 10 - filled)
            + "] \(percent)%"
    }
}
