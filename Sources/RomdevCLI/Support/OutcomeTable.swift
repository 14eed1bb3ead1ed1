import CareStorage
import Foundation

/// Outcomes as a table, one row per value (an outcome without values gets one row with empty value
/// columns), for `romdev outcomes --csv` and `romdev export --format csv`.
enum OutcomeTable {
    /// The header row's columns.
    static let columns = [
        "device_id", "task_id", "task_uuid", "occurrence", "event_start", "event_end", "outcome_created",
        "value_index", "kind", "type", "value", "units", "value_created",
    ]

    /// The CSV text, header included.
    static func csv(_ outcomes: [StoredOutcome], deviceID: UUID, calendar: Calendar) -> String {
        var text = CSV.line(columns)
        let time = { (date: Date) in LocalTime.iso8601(date, calendar: calendar) }
        for stored in outcomes {
            let outcome = stored.outcome
            let common = [
                deviceID.uuidString, stored.taskID, outcome.taskUUID.uuidString, String(outcome.taskOccurrenceIndex),
                time(outcome.eventStart), time(outcome.eventEnd), time(outcome.createdDate),
            ]
            if outcome.values.isEmpty {
                text += CSV.line(common + Array(repeating: "", count: 6))
            }
            for (index, value) in outcome.values.enumerated() {
                text += CSV.line(
                    common + [
                        String(index), value.kind ?? "", value.typeName,
                        CareOutput.text(value.value, calendar: calendar),
                        value.units ?? "", time(value.createdDate),
                    ])
            }
        }
        return text
    }
}
