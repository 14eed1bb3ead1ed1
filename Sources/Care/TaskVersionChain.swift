import Foundation

/// All versions of one task, oldest first, and CareKit's versioning rules over them as pure
/// functions.
///
/// The graph is linear: each version names its one predecessor in `previousVersionUUID`. Each
/// version owns the events from its effective date up to the next-later effective date of the
/// chain; on equal effective dates the newer version wins.
public struct TaskVersionChain: Hashable, Sendable {
    /// The versions, oldest first. Only the last may be a tombstone.
    public let versions: [CareTask]

    /// Checks and wraps a chain.
    ///
    /// - Throws: ``CareError/emptyVersionChain`` or ``CareError/invalidVersionChain(taskID:reason:)``
    ///   when the ids differ, a link is wrong, or a tombstone is not last.
    public init(_ versions: [CareTask]) throws(CareError) {
        guard let first = versions.first else { throw .emptyVersionChain }
        func invalid(_ reason: String) -> CareError { .invalidVersionChain(taskID: first.id, reason: reason) }
        guard first.previousVersionUUID == nil else { throw invalid("the first version names a previous version") }
        for (older, newer) in zip(versions, versions.dropFirst()) {
            guard newer.id == first.id else { throw invalid("version \(newer.uuid.uuidString) has id '\(newer.id)'") }
            guard newer.previousVersionUUID == older.uuid else {
                throw invalid("version \(newer.uuid.uuidString) does not follow \(older.uuid.uuidString)")
            }
            guard !older.isDeleted else { throw invalid("a deleted version is followed by another") }
        }
        self.versions = versions
    }

    /// The task id.
    public var id: String { versions[0].id }

    /// The newest version (possibly a tombstone).
    public var head: CareTask { versions[versions.count - 1] }

    /// True when the task was deleted.
    public var isDeleted: Bool { head.isDeleted }

    /// The version that applies to a date interval, or nil when none does ([CK]
    /// `newestVersionPredicate`): the newest version that is not a tombstone, took effect before
    /// `interval.end`, and whose successor (if any) takes effect at or after `interval.end`. A
    /// tombstone hides the task from its effective date on.
    public func version(for interval: DateInterval) -> CareTask? {
        for index in versions.indices.reversed() {
            let version = versions[index]
            let next = index + 1 < versions.count ? versions[index + 1] : nil
            if !version.isDeleted, version.effectiveDate < interval.end,
                next.map({ $0.effectiveDate >= interval.end }) ?? true
            {
                return version
            }
        }
        return nil
    }

    /// The events of the task in a query window, each from the version that owns it, with the live
    /// outcomes joined on (task version, occurrence).
    ///
    /// [CK] `makePartialEvents`: starting at the version that applies to the window and walking back,
    /// versions are sorted by descending effective date (newer first on ties); each emits its
    /// schedule's events from `max(effectiveDate, start)` up to the effective date of the version
    /// before it in that order (the window end for the first). Unlike CareKit, that upper bound is
    /// clipped to the window end, so no event starts at or after `end` even when an older version
    /// has a later effective date.
    ///
    /// - Parameters:
    ///   - start: Inclusive lower bound on event ends.
    ///   - end: Exclusive upper bound on event starts.
    ///   - outcomes: Outcomes of this task (any version); deleted ones are ignored.
    ///   - calendar: The calendar the schedules were built with.
    /// - Returns: Events ordered by start, then by ascending effective date; empty when
    ///   `start >= end` or no version applies.
    public func events(
        from start: Date, to end: Date, outcomes: [Outcome] = [], calendar: Calendar
    ) -> [Event] {
        events(from: start, to: end, outcomes: OutcomesByEvent(outcomes), calendar: calendar)
    }

    /// ``events(from:to:outcomes:calendar:)`` with the outcomes already indexed, for callers that
    /// ask for many windows of one task: indexing every outcome again for each window would cost
    /// the length of the history per window.
    public func events(
        from start: Date, to end: Date, outcomes outcomeByEvent: OutcomesByEvent, calendar: Calendar
    ) -> [Event] {
        guard start < end, let applying = version(for: DateInterval(start: start, end: end)),
            let applyingIndex = versions.firstIndex(where: { $0.uuid == applying.uuid })
        else { return [] }
        let byDescendingEffectiveDate = versions[...applyingIndex].reversed().enumerated()
            .sorted { ($1.element.effectiveDate, $0.offset) < ($0.element.effectiveDate, $1.offset) }
            .map(\.element)
        var currentEnd = end
        var eventsPerVersion: [[Event]] = []
        for version in byDescendingEffectiveDate {
            let versionStart = max(version.effectiveDate, start)
            if versionStart < currentEnd {
                eventsPerVersion.append(
                    version.schedule.events(from: versionStart, to: currentEnd, calendar: calendar).map {
                        Event(
                            task: version, scheduleEvent: $0,
                            outcome: outcomeByEvent.outcome(taskUUID: version.uuid, occurrence: $0.occurrence))
                    })
            }
            currentEnd = min(currentEnd, version.effectiveDate)
        }
        return eventsPerVersion.reversed().joined().enumerated()
            .sorted { ($0.element.scheduleEvent.start, $0.offset) < ($1.element.scheduleEvent.start, $1.offset) }
            .map(\.element)
    }
}

/// Live outcomes by the event they belong to: (task version, occurrence index). Deleted outcomes
/// are left out; of two outcomes for one event the first is kept.
public struct OutcomesByEvent: Sendable {
    private struct Key: Hashable {
        let taskUUID: UUID
        let occurrence: Int
    }

    private let outcomes: [Key: Outcome]

    public init(_ outcomes: [Outcome]) {
        self.outcomes = Dictionary(
            outcomes.filter(\.isLive).map { (Key(taskUUID: $0.taskUUID, occurrence: $0.taskOccurrenceIndex), $0) },
            uniquingKeysWith: { first, _ in first })
    }

    func outcome(taskUUID: UUID, occurrence: Int) -> Outcome? {
        outcomes[Key(taskUUID: taskUUID, occurrence: occurrence)]
    }
}
