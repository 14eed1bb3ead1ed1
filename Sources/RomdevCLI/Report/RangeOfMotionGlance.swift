import Care
import CareStorage
import Foundation

/// The one-line range-of-motion trend `romdev today` prints: the first and the last of the
/// latest clean measurements, e.g. `ROM 52° → 71° over 9 days (5 measurements)`.
enum RangeOfMotionGlance {
    /// How many of the latest measurements the line spans.
    static let span = 5

    /// The line for ranges in recording order, the first and last `days` days apart; nil for none.
    static func line(ranges: [Double], days: Int) -> String? {
        guard let first = ranges.first, let last = ranges.last else { return nil }
        let firstText = RecoveryReportPage.degrees(first)
        guard ranges.count > 1 else { return "ROM \(firstText) (1 measurement)" }
        let over = days == 0 ? "on one day" : "over \(days) day\(days == 1 ? "" : "s")"
        return "ROM \(firstText) → \(RecoveryReportPage.degrees(last)) \(over) (\(ranges.count) measurements)"
    }

    /// The line for the store's latest clean measurements, scheduled or not, of days up to
    /// `end` (exclusive); nil when there is none.
    static func line(store: CareStore, before end: Date) throws(CareStoreError) -> String? {
        let calendar = store.calendar
        var outcomes: [Outcome] = []
        for taskID in [RecoverCarePlan.TaskID.rangeOfMotionCheck, RecoverCarePlan.TaskID.rangeOfMotionUnscheduled] {
            do {
                outcomes += try store.fetchOutcomes(
                    OutcomeQuery(taskIDs: [taskID], dateInterval: DateInterval(start: .distantPast, end: end))
                )
                .map(\.outcome)
            } catch .unknownTask {
                continue
            }
        }
        let latest =
            outcomes
            .filter {
                $0.value(ofKind: RecoverCarePlan.Kind.flag) == nil
                    && $0.value(ofKind: RecoverCarePlan.Kind.range)?.numberValue != nil
            }
            .sorted { ($0.eventStart, $0.createdDate) < ($1.eventStart, $1.createdDate) }
            .suffix(span)
        guard let first = latest.first, let last = latest.last else { return nil }
        let days =
            calendar.dateComponents(
                [.day], from: calendar.startOfDay(for: first.eventStart), to: calendar.startOfDay(for: last.eventStart)
            ).day ?? 0
        return line(ranges: latest.compactMap { $0.value(ofKind: RecoverCarePlan.Kind.range)?.numberValue }, days: days)
    }
}
