import Foundation

/// Why a task version or an outcome was refused by the versioning rules.
public enum CareError: Error, Hashable, Sendable {
    /// A version chain needs at least one version.
    case emptyVersionChain
    /// A version chain must be one task id, linked oldest to newest by `previousVersionUUID`, with
    /// a tombstone only at its end.
    case invalidVersionChain(taskID: String, reason: String)
    /// The task was deleted; it can no longer be updated.
    case taskDeleted(taskID: String)
    /// The update would take effect at or before an event that already has an outcome, which would
    /// orphan that outcome. Choose an effective date after `latestOutcomeEventStart`.
    case updateWouldOrphanOutcomes(taskID: String, effectiveDate: Date, latestOutcomeEventStart: Date)
    /// No version of the task has this UUID.
    case unknownTaskVersion(taskID: String, uuid: UUID)
    /// The version's schedule has no event with this occurrence index.
    case occurrenceNotInSchedule(taskID: String, occurrence: Int)
    /// A later version takes effect at or before this event's start, so the event belongs to it.
    case occurrenceShadowedByLaterVersion(taskID: String, occurrence: Int, laterVersionEffectiveDate: Date)
    /// The event already has a live outcome; delete it first.
    case duplicateOutcome(taskID: String, occurrence: Int)
}

extension CareError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .emptyVersionChain:
            "a task version chain needs at least one version"
        case .invalidVersionChain(let taskID, let reason):
            "task '\(taskID)': invalid version chain: \(reason)"
        case .taskDeleted(let taskID):
            "task '\(taskID)' was deleted"
        case .updateWouldOrphanOutcomes(let taskID, let effectiveDate, let latest):
            "task '\(taskID)': an update effective \(effectiveDate.iso8601Text) would orphan outcomes;"
                + " the effective date must be after \(latest.iso8601Text), the start of the latest event with an outcome"
        case .unknownTaskVersion(let taskID, let uuid):
            "task '\(taskID)' has no version \(uuid.uuidString)"
        case .occurrenceNotInSchedule(let taskID, let occurrence):
            "task '\(taskID)' has no occurrence \(occurrence) in its schedule"
        case .occurrenceShadowedByLaterVersion(let taskID, let occurrence, let effective):
            "task '\(taskID)': occurrence \(occurrence) belongs to a later version effective \(effective.iso8601Text)"
        case .duplicateOutcome(let taskID, let occurrence):
            "task '\(taskID)': occurrence \(occurrence) already has an outcome"
        }
    }
}
