import Care
import CareStorage
import Foundation

extension RecoveryReport {
    /// Reads the report of the store's days from `window.start`'s day while before `window.end`.
    /// Days, their adherence and the scheduled measurements come from the store's own rules and
    /// calendar (time-zone changes and DST days included); an outcome is on the day of its event.
    ///
    /// - Parameter now: Decides which scheduled measurements are missed (their day is over) and
    ///   which are still due.
    static func read(from store: CareStore, window: DateInterval, now: Date) throws(CareStoreError) -> RecoveryReport {
        let calendar = store.calendar
        let metadata = try store.storeMetadata()
        let settings = try store.carePlanSettings()
        let adherence = try store.fetchAdherence(from: window.start, to: window.end)
        var dayIndex: [Date: Int] = [:]
        for (index, entry) in adherence.enumerated() { dayIndex[entry.day] = index }
        func index(of date: Date) -> Int? { dayIndex[calendar.startOfDay(for: date)] }

        var scheduling = [Scheduling](repeating: .notScheduled, count: adherence.count)
        for event in try scheduledMeasurements(in: store, window: window) {
            guard let day = index(of: event.scheduleEvent.start) else { continue }
            let state: Scheduling = event.outcome != nil ? .recorded : event.scheduleEvent.end <= now ? .missed : .due
            // Two events on one day (a task update): the day shows the one still open.
            if scheduling[day] == .notScheduled || scheduling[day] == .recorded { scheduling[day] = state }
        }
        let days = zip(adherence, scheduling).map { entry, state in
            let parts = calendar.dateComponents([.year, .month, .day], from: entry.day)
            return Day(year: parts.year ?? 0, month: parts.month ?? 0, dayOfMonth: parts.day ?? 0,
                       rangeOfMotion: state, adherence: entry.adherence)
        }

        let outcomes = try store.fetchOutcomes(OutcomeQuery(dateInterval: window))
        let titles = Dictionary(try store.fetchTasks(TaskQuery()).map { ($0.id, $0.title ?? $0.id) }) { _, newer in newer }
        var measurements: [Measurement] = []
        var checkIns: [CheckIn] = []
        var rows: [OutcomeRow] = []
        for stored in outcomes {
            let outcome = stored.outcome
            let flags = outcome.values.filter { $0.kind == RecoverCarePlan.Kind.flag }.map { CareOutput.text($0.value, calendar: calendar) }
            rows.append(OutcomeRow(
                day: LocalTime.day(outcome.eventStart, calendar: calendar),
                time: recordedText(outcome, calendar: calendar),
                task: titles[stored.taskID] ?? stored.taskID,
                values: outcome.values.filter { $0.kind != RecoverCarePlan.Kind.flag }.map { valueText($0, calendar: calendar) },
                flags: flags))
            guard let day = index(of: outcome.eventStart) else { continue }
            switch stored.taskID {
            case RecoverCarePlan.TaskID.rangeOfMotionCheck, UnscheduledMeasurements.taskID:
                let angles = outcome.values.compactMap { value -> Angle? in
                    guard let kind = value.kind, value.units == RecoverCarePlan.rangeOfMotionUnits,
                          let degrees = value.numberValue else { return nil }
                    return Angle(kind: kind, degrees: degrees)
                }
                // Only a result with a range is charted; any other stays in the table.
                guard angles.contains(where: { $0.kind == RecoverCarePlan.Kind.range }) else { continue }
                measurements.append(Measurement(
                    day: day, time: LocalTime.timeOfDay(outcome.createdDate, calendar: calendar), angles: angles,
                    flags: flags, isUnscheduled: stored.taskID == UnscheduledMeasurements.taskID))
            case RecoverCarePlan.TaskID.checkin:
                checkIns.append(CheckIn(
                    day: day, pain: outcome.value(ofKind: RecoverCarePlan.Kind.pain)?.numberValue,
                    sleep: outcome.value(ofKind: RecoverCarePlan.Kind.sleep)?.numberValue))
            default:
                break
            }
        }
        return RecoveryReport(
            deviceID: metadata.deviceID.uuidString, limb: (settings?.limb ?? metadata.limb)?.rawValue,
            planStart: settings.map { LocalTime.day($0.start, calendar: calendar) },
            timeZone: calendar.timeZone.identifier, generated: LocalTime.iso8601(now, calendar: calendar),
            days: days, measurements: measurements, checkIns: checkIns, outcomes: rows)
    }

    /// The range-of-motion task's events in the window; none when the store has no such task.
    private static func scheduledMeasurements(in store: CareStore, window: DateInterval) throws(CareStoreError) -> [Event] {
        do {
            return try store.fetchEvents(taskID: RecoverCarePlan.TaskID.rangeOfMotionCheck, from: window.start, to: window.end)
        } catch .unknownTask {
            return []
        }
    }

    /// `09:12` when recorded on the event's day, else the local date and time, as a late entry.
    private static func recordedText(_ outcome: Outcome, calendar: Calendar) -> String {
        calendar.isDate(outcome.createdDate, inSameDayAs: outcome.eventStart)
            ? LocalTime.timeOfDay(outcome.createdDate, calendar: calendar)
            : LocalTime.format(outcome.createdDate, calendar: calendar)
    }

    /// `range 71.2°`, `sleep 7 h`, `consent_by Ann`: the kind, the value and its units.
    private static func valueText(_ value: OutcomeValue, calendar: Calendar) -> String {
        let text = CareOutput.text(value.value, calendar: calendar)
        let units = value.units.map { $0 == RecoverCarePlan.rangeOfMotionUnits ? "°" : " " + $0 } ?? ""
        let kind = value.kind.map { RecoveryReportPage.label(forKind: $0) + " " } ?? ""
        return kind + text + units
    }
}
