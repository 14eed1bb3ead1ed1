import Care
import CareStorage
import Foundation

/// Reads what the daemon needs from the care store: the day's status and the newest outcome date.
struct CareDayReader {
    let store: CareStore

    /// The status of the local day containing `now`, in the store's calendar.
    func status(at now: Date) throws(CareStoreError) -> CareDayStatus {
        guard try store.carePlanSettings() != nil else {
            return .evaluate(hasCarePlan: false, onboardingPending: false, rangeOfMotionEvents: [])
        }
        let pending = try store.isOnboardingPending()
        let day = store.calendar.dayInterval(containing: now)
        let events =
            pending
            ? []
            : try store.fetchEvents(
                taskID: RecoverCarePlan.TaskID.rangeOfMotionCheck, from: day.start, to: day.end)
        return .evaluate(hasCarePlan: true, onboardingPending: pending, rangeOfMotionEvents: events)
    }

    /// The creation date of the newest live outcome, if any.
    func newestOutcome() throws(CareStoreError) -> Date? {
        try store.newestOutcomeDate()
    }
}
