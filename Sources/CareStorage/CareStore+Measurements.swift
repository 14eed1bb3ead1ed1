import Care
import Foundation
import Fusion

/// Which task a range-of-motion measurement is recorded on.
public enum MeasurementTask: Hashable, Sendable {
    /// The plan's `rangeOfMotionCheck`: the day's first event without an outcome.
    case scheduled
    /// `rangeOfMotionUnscheduled`, outside the schedule: its event of the day, the task being
    /// added on first use (``RecoverCarePlan/unscheduledRangeOfMotionTask(start:createdDate:calendar:)``).
    case unscheduled

    public var taskID: String {
        switch self {
        case .scheduled: RecoverCarePlan.TaskID.rangeOfMotionCheck
        case .unscheduled: RecoverCarePlan.TaskID.rangeOfMotionUnscheduled
        }
    }
}

/// Where a measurement goes, found before the patient measures so that nothing is measured in
/// vain: the outcome goes to the event of the day the measurement started, even when it ends
/// after midnight.
public struct MeasurementTarget: Hashable, Sendable {
    public let task: MeasurementTask
    /// The local day the measurement started.
    public let day: DateInterval
    /// The event; nil for the unscheduled task before its first use.
    public let event: Event?
}

/// Why a measurement cannot be recorded. Every refusal leaves the store unchanged.
public enum MeasurementRecordingError: Error, Sendable, CustomStringConvertible {
    /// The store has no care plan (`romdev init`).
    case noCarePlan
    /// No event of the task on the day (`date`: its year, month and day).
    case nothingDue(taskID: String, date: DateComponents)
    /// Every event of the task on the day has an outcome; `occurrence` is the last one's.
    case alreadyRecorded(taskID: String, occurrence: Int)
    /// The result is not stored.
    case unusable(UnusableResult)
    /// The store refused or failed, onboarding not done among them
    /// (``CareStoreError/onboardingRequired(taskID:)``).
    case store(CareStoreError)

    public var description: String {
        switch self {
        case .noCarePlan:
            "the store has no care plan"
        case let .nothingDue(_, date):
            "no range-of-motion measurement is due today ("
                + String(format: "%04d-%02d-%02d", date.year ?? 0, date.month ?? 0, date.day ?? 0) + ")"
        case let .alreadyRecorded(taskID, _):
            "today's \(taskID) event already has an outcome"
        case let .unusable(reason):
            "the measurement is not usable: \(reason)"
        case let .store(error):
            "\(error)"
        }
    }
}

extension CareStore {
    /// Checks, before the patient measures, that a measurement started at `now` can be recorded
    /// on `task`, and says where it will go.
    /// - Throws: ``MeasurementRecordingError``: no care plan, onboarding not done, nothing due
    ///   that day, or already recorded.
    public func measurementTarget(_ task: MeasurementTask, at now: Date) throws(MeasurementRecordingError)
        -> MeasurementTarget
    {
        let day = calendar.dayInterval(containing: now)
        let settings: CarePlanSettings?
        do {
            settings = try carePlanSettings()
            if settings != nil { try checkOnboardingDone(recording: task.taskID) }
        } catch {
            throw .store(error)
        }
        guard settings != nil else { throw .noCarePlan }
        return MeasurementTarget(task: task, day: day, event: try openEvent(of: task, on: day))
    }

    /// Stores `result` on `target`'s event as its outcome values (``RangeOfMotionResult/outcomeValues(limb:createdDate:)``),
    /// committed before it returns. A result the store would not keep (``UnusableResult``) is
    /// refused; the unscheduled task is added on its first use.
    /// - Parameters:
    ///   - limb: The knee measured; nil for the care plan's.
    ///   - now: The recording instant.
    /// - Returns: The stored outcome.
    @discardableResult
    public func recordMeasurement(
        _ result: RangeOfMotionResult, on target: MeasurementTarget, limb: Limb?, at now: Date
    ) throws(MeasurementRecordingError) -> StoredOutcome {
        if let unusable = UnusableResult(result) { throw .unusable(unusable) }
        let settings: CarePlanSettings?
        do { settings = try carePlanSettings() } catch { throw .store(error) }
        guard let settings else { throw .noCarePlan }
        var event = target.event
        if event == nil {
            let task: CareTask
            do {
                task = try RecoverCarePlan.unscheduledRangeOfMotionTask(
                    start: target.day.start, createdDate: now, calendar: calendar)
            } catch {
                throw .store(.schedule(error))
            }
            do {
                try addTask(task)
            } catch .duplicateTaskID(_) {
                // Added meanwhile by another process: its task is used.
            } catch {
                throw .store(error)
            }
            event = try openEvent(of: target.task, on: target.day)
        }
        guard let event else {
            throw .nothingDue(
                taskID: target.task.taskID,
                date: calendar.dateComponents([.year, .month, .day], from: target.day.start))
        }
        let outcome = NewOutcome(
            taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence,
            values: result.outcomeValues(limb: limb ?? settings.limb, createdDate: now))
        do {
            return try addOutcome(outcome, now: now)
        } catch .care(.duplicateOutcome(let taskID, let occurrence)) {
            throw .alreadyRecorded(taskID: taskID, occurrence: occurrence)
        } catch {
            throw .store(error)
        }
    }

    /// The task's first event on `day` without an outcome (a day with several takes them in
    /// turn); nil for the unscheduled task before its first use.
    private func openEvent(of task: MeasurementTask, on day: DateInterval) throws(MeasurementRecordingError) -> Event? {
        let events: [Event]
        do {
            events = try fetchEvents(taskID: task.taskID, from: day.start, to: day.end)
        } catch .unknownTask where task == .unscheduled {
            return nil
        } catch {
            throw .store(error)
        }
        guard let last = events.last else {
            throw .nothingDue(
                taskID: task.taskID, date: calendar.dateComponents([.year, .month, .day], from: day.start))
        }
        guard let open = events.first(where: { $0.outcome == nil }) else {
            throw .alreadyRecorded(taskID: task.taskID, occurrence: last.scheduleEvent.occurrence)
        }
        return open
    }
}
