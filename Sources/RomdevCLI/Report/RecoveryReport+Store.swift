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
        let (adherence, outcomes) = try store.fetchAdherenceAndOutcomes(from: window.start, to: window.end)
        let dayStarts = adherence.map(\.day)
        // Outcomes and events are placed by their instant among the days' first instants, which
        // the store's calendar gave: a search, where asking the calendar for each of thousands of
        // outcomes would take most of the report's time.
        func index(of date: Date) -> Int? {
            guard let first = dayStarts.first, date >= first, date < window.end else { return nil }
            var low = 0, high = dayStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if dayStarts[middle] <= date { low = middle } else { high = middle - 1 }
            }
            return low
        }

        var scheduling = [Scheduling](repeating: .notScheduled, count: adherence.count)
        for event in try scheduledMeasurements(in: store, window: window) {
            guard let day = index(of: event.scheduleEvent.start) else { continue }
            let state: Scheduling = event.outcome != nil ? .recorded : event.scheduleEvent.end <= now ? .missed : .due
            // Two events on one day (a task update): the day shows the one still open.
            if scheduling[day] == .notScheduled || scheduling[day] == .recorded { scheduling[day] = state }
        }
        let days = zip(adherence, scheduling).map { entry, state in
            let parts = calendar.dateComponents([.year, .month, .day], from: entry.day)
            return Day(
                year: parts.year ?? 0, month: parts.month ?? 0, dayOfMonth: parts.day ?? 0,
                rangeOfMotion: state, adherence: entry.adherence)
        }

        let titles = Dictionary(try store.fetchTasks(TaskQuery()).map { ($0.id, $0.title ?? $0.id) }) { _, newer in
            newer
        }
        var measurements: [Measurement] = []
        var checkIns: [CheckIn] = []
        var rows: [OutcomeRow] = []
        rows.reserveCapacity(outcomes.count)
        var labels: [String: String] = [:]
        let dayTexts = days.map(\.date)
        for stored in outcomes {
            let outcome = stored.outcome
            let flags = outcome.values.filter { $0.kind == RecoverCarePlan.Kind.flag }.map {
                CareOutput.text($0.value, calendar: calendar)
            }
            let values = outcome.values.filter { $0.kind != RecoverCarePlan.Kind.flag }.map { value in
                let label = value.kind.map { kind in
                    if let known = labels[kind] { return known }
                    let label = RecoveryReportPage.label(forKind: kind)
                    labels[kind] = label
                    return label
                }
                return valueText(value, label: label, calendar: calendar)
            }
            let day = index(of: outcome.eventStart)
            // The time alone when recorded on the event's day, else the date and time of the late entry.
            let recorded =
                day != nil && index(of: outcome.createdDate) == day
                ? clockTime(outcome.createdDate, in: calendar.timeZone)
                : LocalTime.format(outcome.createdDate, calendar: calendar)
            rows.append(
                OutcomeRow(
                    day: day.map { dayTexts[$0] } ?? LocalTime.day(outcome.eventStart, calendar: calendar),
                    time: recorded, task: titles[stored.taskID] ?? stored.taskID, values: values, flags: flags))
            guard let day else { continue }
            switch stored.taskID {
            case RecoverCarePlan.TaskID.rangeOfMotionCheck, RecoverCarePlan.TaskID.rangeOfMotionUnscheduled:
                let angles = outcome.values.compactMap { value -> Angle? in
                    guard let kind = value.kind, value.units == RecoverCarePlan.rangeOfMotionUnits,
                        let degrees = value.numberValue
                    else { return nil }
                    return Angle(kind: kind, degrees: degrees)
                }
                // Only a result with a range is charted; any other stays in the table.
                guard angles.contains(where: { $0.kind == RecoverCarePlan.Kind.range }) else { continue }
                measurements.append(
                    Measurement(
                        day: day, time: clockTime(outcome.createdDate, in: calendar.timeZone), angles: angles,
                        flags: flags, isUnscheduled: stored.taskID == RecoverCarePlan.TaskID.rangeOfMotionUnscheduled))
            case RecoverCarePlan.TaskID.checkin:
                checkIns.append(
                    CheckIn(
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
    private static func scheduledMeasurements(in store: CareStore, window: DateInterval) throws(CareStoreError)
        -> [Event]
    {
        do {
            return try store.fetchEvents(
                taskID: RecoverCarePlan.TaskID.rangeOfMotionCheck, from: window.start, to: window.end)
        } catch .unknownTask {
            return []
        }
    }

    /// `09:12`, the wall-clock time at `date` in `zone`: UTC plus the zone's offset at that
    /// instant, the same as the calendar's hour and minute at a fraction of the cost.
    private static func clockTime(_ date: Date, in zone: TimeZone) -> String {
        let local = Int((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
        let secondOfDay = (local % 86_400 + 86_400) % 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return two(secondOfDay / 3600) + ":" + two(secondOfDay % 3600 / 60)
    }

    /// `range 71.2°`, `sleep 7 h`, `by Ann`: the kind's label, the value and its units.
    private static func valueText(_ value: OutcomeValue, label: String?, calendar: Calendar) -> String {
        let text = CareOutput.text(value.value, calendar: calendar)
        let units = value.units.map { $0 == RecoverCarePlan.rangeOfMotionUnits ? "°" : " " + $0 } ?? ""
        return (label.map { $0 + " " } ?? "") + text + units
    }
}
