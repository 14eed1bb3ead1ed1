import Foundation

/// The recorded result of one event of one task version.
public struct Outcome: Hashable, Sendable {
    /// This outcome's identifier.
    public var uuid: UUID
    /// The task *version* the outcome belongs to.
    public var taskUUID: UUID
    /// The event's global occurrence index in that version's schedule.
    public var taskOccurrenceIndex: Int
    /// The recorded values, possibly none (the outcome still marks the event done).
    public var values: [OutcomeValue]
    /// When the outcome was recorded.
    public var createdDate: Date
    /// The event's start, frozen when the outcome was stored; date queries use it.
    public var eventStart: Date
    /// The event's end, frozen when the outcome was stored.
    public var eventEnd: Date
    /// Set when the outcome was deleted; a deleted outcome no longer completes its event.
    public var deletedDate: Date?

    /// Creates an outcome. Use ``TaskVersionChain/eventForNewOutcome(taskUUID:occurrence:existingOutcomes:calendar:)``
    /// to validate the occurrence and obtain the event window.
    public init(
        uuid: UUID = UUID(), taskUUID: UUID, taskOccurrenceIndex: Int, values: [OutcomeValue],
        createdDate: Date, eventStart: Date, eventEnd: Date, deletedDate: Date? = nil
    ) {
        self.uuid = uuid
        self.taskUUID = taskUUID
        self.taskOccurrenceIndex = taskOccurrenceIndex
        self.values = values
        self.createdDate = createdDate
        self.eventStart = eventStart
        self.eventEnd = eventEnd
        self.deletedDate = deletedDate
    }

    /// True unless the outcome was deleted.
    public var isLive: Bool { deletedDate == nil }

    /// The first value of a kind, if any ("the answer" for that kind).
    public func value(ofKind kind: String) -> OutcomeValue? {
        values.first { $0.kind == kind }
    }
}
