import Care
import Foundation

/// What the day asks of the patient, from the care store: the daemon's LED and reminders follow it.
public enum CareDayStatus: Equatable, Sendable {
    /// The store holds no care plan yet (`romdev init`).
    case noCarePlan
    /// Onboarding is not done: nothing else happens until it is (`romdev onboard`).
    case onboardingPending
    /// A range-of-motion event today has no outcome: the first such event.
    case measurementDue(MeasurementSlot)
    /// Today's range-of-motion events all have outcomes.
    case measurementDone
    /// No range-of-motion event today.
    case nothingScheduled

    /// The event a measurement is recorded on.
    public struct MeasurementSlot: Equatable, Sendable {
        public let taskUUID: UUID
        public let occurrence: Int
        public let start: Date

        public init(taskUUID: UUID, occurrence: Int, start: Date) {
            self.taskUUID = taskUUID
            self.occurrence = occurrence
            self.start = start
        }
    }

    /// - Parameters:
    ///   - hasCarePlan: Whether the plan was seeded.
    ///   - onboardingPending: Whether onboarding still lacks an outcome.
    ///   - rangeOfMotionEvents: The day's range-of-motion events, in order.
    public static func evaluate(hasCarePlan: Bool, onboardingPending: Bool, rangeOfMotionEvents: [Event]) -> CareDayStatus {
        guard hasCarePlan else { return .noCarePlan }
        if onboardingPending { return .onboardingPending }
        guard !rangeOfMotionEvents.isEmpty else { return .nothingScheduled }
        // Recover records a result on the day's first event; a day with several takes them in turn.
        guard let open = rangeOfMotionEvents.first(where: { $0.outcome == nil }) else { return .measurementDone }
        return .measurementDue(MeasurementSlot(
            taskUUID: open.task.uuid, occurrence: open.scheduleEvent.occurrence, start: open.scheduleEvent.start))
    }

    public var isMeasurementDue: Bool {
        if case .measurementDue = self { return true }
        return false
    }

    /// For the status line and the log.
    public var summary: String {
        switch self {
        case .noCarePlan: "no care plan in the store (romdev init)"
        case .onboardingPending: "waiting for onboarding (romdev onboard)"
        case .measurementDue: "range-of-motion measurement due today"
        case .measurementDone: "today's measurement is done"
        case .nothingScheduled: "no measurement today"
        }
    }
}
