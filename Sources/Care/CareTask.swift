import Foundation

/// One version of a care task. All versions of a task share `id`; each has its own `uuid`.
///
/// Versions form a linear chain through `previousVersionUUID` (see ``TaskVersionChain``). A version
/// with `deletedDate` set is a tombstone: it hides the task from its effective date on.
public struct CareTask: Hashable, Sendable {
    /// The task's identifier, shared by all its versions (e.g. `checkin`).
    public var id: String
    /// This version's identifier.
    public var uuid: UUID
    /// A short title, e.g. "Check In".
    public var title: String?
    /// What the patient is asked to do.
    public var instructions: String?
    /// Whether the task's events count toward adherence.
    public var impactsAdherence: Bool
    /// When the task's events occur.
    public var schedule: Schedule
    /// The instant from which this version takes precedence over older ones.
    public var effectiveDate: Date
    /// Set on a tombstone version only: when the task was deleted.
    public var deletedDate: Date?
    /// When the task was first created (kept across versions).
    public var createdDate: Date
    /// When this version was made by an update; nil for the first version.
    public var updatedDate: Date?
    /// The version this one replaces; nil for the first version.
    public var previousVersionUUID: UUID?

    /// Creates a task version.
    ///
    /// - Parameters:
    ///   - effectiveDate: Defaults to `schedule.startDate`, as in CareKit.
    ///   - createdDate: No default: callers pass their `now`.
    public init(
        id: String, uuid: UUID = UUID(), title: String? = nil, instructions: String? = nil,
        impactsAdherence: Bool = true, schedule: Schedule, effectiveDate: Date? = nil,
        deletedDate: Date? = nil, createdDate: Date, updatedDate: Date? = nil,
        previousVersionUUID: UUID? = nil
    ) {
        self.id = id
        self.uuid = uuid
        self.title = title
        self.instructions = instructions
        self.impactsAdherence = impactsAdherence
        self.schedule = schedule
        self.effectiveDate = effectiveDate ?? schedule.startDate
        self.deletedDate = deletedDate
        self.createdDate = createdDate
        self.updatedDate = updatedDate
        self.previousVersionUUID = previousVersionUUID
    }

    /// True for a tombstone version.
    public var isDeleted: Bool { deletedDate != nil }
}
