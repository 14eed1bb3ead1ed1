import Foundation

@testable import Care

/// Deterministic task versions and outcomes for versioning and adherence tests.
enum Fixtures {
    static let la = Calendars.losAngeles

    static func uuid(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!
    }

    /// Daily at `hour` from June 1 2021 in Los Angeles.
    static func daily(at hour: Int, from day: Int = 1, end: Date? = nil) -> Schedule {
        try! Schedule.dailyAtTime(hour: hour, minutes: 0, start: la.date(2021, 6, day), end: end, calendar: la)
    }

    static func task(
        _ n: Int, id: String = "exercise", schedule: Schedule, effective: Date? = nil, previous: Int? = nil,
        impactsAdherence: Bool = true, deleted: Date? = nil
    ) -> CareTask {
        CareTask(
            id: id, uuid: uuid(n), impactsAdherence: impactsAdherence, schedule: schedule, effectiveDate: effective,
            deletedDate: deleted, createdDate: la.date(2021, 5, 1), previousVersionUUID: previous.map(uuid))
    }

    static func outcome(_ task: CareTask, _ occurrence: Int, values: [OutcomeValue] = [], deleted: Date? = nil)
        -> Outcome
    {
        let event = task.schedule.event(forOccurrenceIndex: occurrence, calendar: la)!
        return Outcome(
            uuid: uuid(1000 + occurrence), taskUUID: task.uuid, taskOccurrenceIndex: occurrence, values: values,
            createdDate: event.start, eventStart: event.start, eventEnd: event.end, deletedDate: deleted)
    }
}
