import Care
import CareStorage
import Foundation

/// Measurements taken outside the plan's schedule. The store only keeps outcomes of scheduled
/// events (one per event), so they go to a task of their own: all day, every day from the day it
/// is first used, not counted in adherence. It is added on first use rather than seeded, so a
/// plan that never needs it never shows it.
enum UnscheduledMeasurements {
    static let taskID = "rangeOfMotionUnscheduled"
    static let title = "Range Of Motion (unscheduled)"

    /// The task's event on `day`, or nil when the task does not exist yet.
    static func event(on day: DateInterval, in store: CareStore, doing what: String) throws -> Event? {
        do {
            return try store.fetchEvents(taskID: taskID, from: day.start, to: day.end).first
        } catch .unknownTask {
            return nil
        } catch {
            throw CommandFailure(what, why: "\(error)", hint: error.hint)
        }
    }

    /// Adds the task, starting on `day`, and returns its event that day. Another process adding
    /// it first is fine: its task is used.
    static func addTask(on day: DateInterval, in store: CareStore, now: Date, doing what: String) throws -> Event {
        let calendar = store.calendar
        do {
            let element = try ScheduleElement(start: day.start, interval: .days(1), duration: .allDay, calendar: calendar)
            let task = CareTask(
                id: taskID, title: title,
                instructions: "A range-of-motion measurement taken outside the schedule ('romdev measure --unscheduled').",
                impactsAdherence: false, schedule: try Schedule(composing: [element]), createdDate: now)
            try store.addTask(task)
        } catch CareStoreError.duplicateTaskID {
            // Added meanwhile by another process.
        } catch {
            throw CommandFailure(what, why: "\(error)", hint: (error as? CareStoreError)?.hint)
        }
        guard let event = try Self.event(on: day, in: store, doing: what) else {
            throw CommandFailure(what, why: "task '\(taskID)' has no event on \(LocalTime.day(day.start, calendar: calendar))")
        }
        return event
    }
}
