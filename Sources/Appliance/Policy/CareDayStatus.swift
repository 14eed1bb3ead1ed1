import Care
import Foundation

/// What the day asks of the patient, from the care store: the daemon's LED and reminders follow it.
public enum CareDayStatus: Equatable, Sendable {
    /// The store holds no care plan yet (`romdev init`).
    case noCarePlan
    /// Onboarding is not done: nothing else happens until it is (`romdev onboard`).
    case onboardingPending
    /// A range-of-motion event today has no outcome (the store says which takes the result:
    /// `CareStore.measurementTarget(_:at:)`).
    case measurementDue
    /// Today's range-of-motion events all have outcomes.
    case measurementDone
    /// No range-of-motion event today.
    case nothingScheduled

    /// - Parameters:
    ///   - hasCarePlan: Whether the plan was seeded.
    ///   - onboardingPending: Whether onboarding still lacks an outcome.
    ///   - rangeOfMotionEvents: The day's range-of-motion events, in order.
    public static func evaluate(hasCarePlan: Bool, onboardingPending: Bool, rangeOfMotionEvents: [Event])
        -> CareDayStatus
    {
        guard hasCarePlan else { return .noCarePlan }
        if onboardingPending { return .onboardingPending }
        guard !rangeOfMotionEvents.isEmpty else { return .nothingScheduled }
        return rangeOfMotionEvents.allSatisfy { $0.outcome != nil } ? .measurementDone : .measurementDue
    }

    public var isMeasurementDue: Bool { self == .measurementDue }

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
