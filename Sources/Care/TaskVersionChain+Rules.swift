import Foundation

extension TaskVersionChain {
    /// Refuses an update that would orphan stored outcomes ([CK]
    /// `confirmUpdateWillNotCauseDataLoss`): with live outcomes on any version, the new effective
    /// date must be after the latest start among their events.
    ///
    /// - Parameters:
    ///   - effectiveDate: The new version's effective date.
    ///   - outcomes: Outcomes of this task (any version); deleted ones and those of other tasks are
    ///     ignored.
    /// - Throws: ``CareError/taskDeleted(taskID:)`` or ``CareError/updateWouldOrphanOutcomes(taskID:effectiveDate:latestOutcomeEventStart:)``.
    public func validateUpdate(effectiveDate: Date, outcomes: [Outcome]) throws(CareError) {
        guard !isDeleted else { throw .taskDeleted(taskID: id) }
        let uuids = Set(versions.map(\.uuid))
        let latest = outcomes.filter { $0.isLive && uuids.contains($0.taskUUID) }.map(\.eventStart).max()
        if let latest, effectiveDate <= latest {
            throw .updateWouldOrphanOutcomes(taskID: id, effectiveDate: effectiveDate, latestOutcomeEventStart: latest)
        }
    }

    /// The chain with a new version appended after the update checks.
    ///
    /// The new version keeps the proposed fields (schedule, title, effective date…) and gets
    /// `uuid`, `previousVersionUUID` = the current head, the head's `createdDate`, and
    /// `updatedDate = now`.
    ///
    /// - Throws: ``CareError`` as ``validateUpdate(effectiveDate:outcomes:)``, or
    ///   ``CareError/invalidVersionChain(taskID:reason:)`` when the proposed id differs.
    public func updating(
        with proposed: CareTask, uuid: UUID, now: Date, outcomes: [Outcome]
    ) throws(CareError) -> TaskVersionChain {
        try validateUpdate(effectiveDate: proposed.effectiveDate, outcomes: outcomes)
        var version = proposed
        version.uuid = uuid
        version.previousVersionUUID = head.uuid
        version.createdDate = head.createdDate
        version.updatedDate = now
        version.deletedDate = nil
        return try TaskVersionChain(versions + [version])
    }

    /// The chain with a tombstone appended: a copy of the head with `deletedDate = now`, keeping the
    /// head's effective date, so the task disappears from that date on.
    ///
    /// - Throws: ``CareError/taskDeleted(taskID:)`` when already deleted.
    public func deleting(uuid: UUID, now: Date) throws(CareError) -> TaskVersionChain {
        guard !isDeleted else { throw .taskDeleted(taskID: id) }
        var tombstone = head
        tombstone.uuid = uuid
        tombstone.previousVersionUUID = head.uuid
        tombstone.updatedDate = now
        tombstone.deletedDate = now
        return try TaskVersionChain(versions + [tombstone])
    }

    /// Checks that an outcome may be added for an event and returns that event, whose window the
    /// outcome freezes ([CK] `OCKStore+Outcomes`).
    ///
    /// Refused when the version is unknown, its schedule has no such occurrence, a later version
    /// takes effect at or before the event's start (with an effective date not before this
    /// version's: the event lies in a region the later version owns), or the event already has a
    /// live outcome.
    ///
    /// - Parameters:
    ///   - taskUUID: The task version the outcome is for.
    ///   - occurrence: The event's occurrence index in that version's schedule.
    ///   - existingOutcomes: Stored outcomes of this task; deleted ones are ignored.
    ///   - calendar: The calendar the schedules were built with.
    /// - Throws: ``CareError``.
    public func eventForNewOutcome(
        taskUUID: UUID, occurrence: Int, existingOutcomes: [Outcome], calendar: Calendar
    ) throws(CareError) -> ScheduleEvent {
        guard let index = versions.firstIndex(where: { $0.uuid == taskUUID }) else {
            throw .unknownTaskVersion(taskID: id, uuid: taskUUID)
        }
        let version = versions[index]
        guard let event = version.schedule.event(forOccurrenceIndex: occurrence, calendar: calendar) else {
            throw .occurrenceNotInSchedule(taskID: id, occurrence: occurrence)
        }
        // [CK] confirmOutcomesAreInValidRegionOfTaskVersionChain.
        for later in versions[(index + 1)...]
        where later.effectiveDate >= version.effectiveDate && later.effectiveDate <= event.start {
            throw .occurrenceShadowedByLaterVersion(
                taskID: id, occurrence: occurrence, laterVersionEffectiveDate: later.effectiveDate)
        }
        if existingOutcomes.contains(where: {
            $0.isLive && $0.taskUUID == taskUUID && $0.taskOccurrenceIndex == occurrence
        }) {
            throw .duplicateOutcome(taskID: id, occurrence: occurrence)
        }
        return event
    }
}
