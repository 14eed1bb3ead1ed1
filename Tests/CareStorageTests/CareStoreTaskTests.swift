import Care
import CareStorage
import Foundation
import Testing

@Suite struct CareStoreTaskTests {
    let fixture: StoreFixture
    var store: CareStore { fixture.store }

    init() throws { fixture = try StoreFixture() }

    // MARK: - Adding

    @Test func addedTaskRoundTrips() throws {
        var task = try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1))
        task.instructions = "Answer two questions ✓"
        let element = try ScheduleElement(
            start: fixture.date(2026, 3, 2, 7, 30), end: fixture.date(2026, 5, 1),
            interval: ScheduleInterval(hours: 3, days: 2),
            duration: .seconds(90), text: "Stretch",
            targetValues: [
                OutcomeValue(.double(90), kind: "range", units: "deg", createdDate: fixture.date(2026, 3, 1))
            ],
            calendar: fixture.calendar)
        let allDay = try ScheduleElement(
            start: fixture.date(2026, 3, 1), interval: .weeks(1), duration: .allDay, calendar: fixture.calendar)
        task.schedule = try Schedule(composing: [element, allDay])
        try store.addTask(task)
        #expect(try store.fetchTaskVersions(id: "checkin").versions == [task])
    }

    @Test func refusesASchedulesDenserThanOneEventEveryFifteenMinutes() throws {
        try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1)))
        let before = try fixture.dump()
        var spam = try fixture.dailyTask("spam", start: fixture.date(2000, 1, 1))
        spam.schedule = try Schedule(composing: [
            try ScheduleElement(start: fixture.date(2000, 1, 1), interval: .seconds(1), calendar: fixture.calendar)
        ])
        #expect { try store.addTask(spam) } throws: {
            if case .schedule(.tooManyEventsPerDay(let count, let maximum))? = $0 as? CareStoreError {
                count == 86_400 && maximum == 96
            } else {
                false
            }
        }
        var update = try store.fetchTaskVersions(id: "checkin").head
        update.schedule = spam.schedule
        update.effectiveDate = fixture.date(2026, 4, 1)
        #expect(throws: CareStoreError.self) { try store.updateTask(update, now: fixture.date(2026, 3, 2)) }
        #expect(try fixture.dump() == before)
    }

    @Test func queriesSpanAtMostTenYears() throws {
        try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1)))
        let start = fixture.date(2026, 3, 1)
        #expect { try store.fetchAdherence(from: fixture.date(1, 1, 1), to: fixture.date(9999, 12, 31)) } throws: {
            if case .intervalTooLong(_, _, let maximumDays)? = $0 as? CareStoreError {
                maximumDays == 3660
            } else {
                false
            }
        }
        #expect(throws: CareStoreError.self) { try store.fetchEvents(from: start, to: fixture.date(2036, 3, 10)) }
        #expect(try store.fetchAdherence(from: start, to: fixture.date(2036, 3, 1)).count == 3653)
        #expect(try store.fetchEvents(from: start, to: fixture.date(2036, 3, 1)).count == 3653)
        // 3660 days and the hour a local day may be longer by; a day more is refused.
        let days = { (count: Double) in start.addingTimeInterval(count * 86_400) }
        #expect(throws: Never.self) {
            try CareStore.checkQueryInterval(from: start, to: days(3660).addingTimeInterval(3_600))
        }
        #expect(throws: CareStoreError.self) { try CareStore.checkQueryInterval(from: start, to: days(3661)) }
    }

    @Test func refusesADuplicateID() throws {
        try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1)))
        let before = try fixture.dump()
        #expect { try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 4, 1))) } throws: {
            guard case .duplicateTaskID("checkin")? = $0 as? CareStoreError else { return false }
            return true
        }
        #expect(try fixture.dump() == before)
    }

    @Test func refusesTheIDOfADeletedTask() throws {
        try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1)))
        try store.deleteTask(id: "checkin", now: fixture.date(2026, 3, 5))
        let before = try fixture.dump()
        #expect(throws: CareStoreError.self) {
            try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 4, 1)))
        }
        #expect(try fixture.dump() == before)
    }

    @Test func aBatchWithOneBadTaskAddsNothing() throws {
        try store.addTask(try fixture.dailyTask("b", start: fixture.date(2026, 3, 1)))
        let before = try fixture.dump()
        #expect(throws: CareStoreError.self) {
            try store.addTasks([
                try fixture.dailyTask("a", start: fixture.date(2026, 3, 1)),
                try fixture.dailyTask("b", start: fixture.date(2026, 3, 1)),
            ])
        }
        #expect(try fixture.dump() == before)
    }

    // MARK: - Versions

    @Test func updateAppendsAVersion() throws {
        let original = try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1)))
        var proposed = try fixture.dailyTask("checkin", hour: 18, start: fixture.date(2026, 3, 1))
        proposed.effectiveDate = fixture.date(2026, 3, 5)
        let updated = try store.updateTask(proposed, now: fixture.date(2026, 3, 4, 12))
        #expect(updated.previousVersionUUID == original.uuid)
        #expect(updated.updatedDate == fixture.date(2026, 3, 4, 12))
        #expect(updated.createdDate == original.createdDate)
        let chain = try store.fetchTaskVersions(id: "checkin")
        #expect(chain.versions.map(\.uuid) == [original.uuid, updated.uuid])

        // Each day gets the version that applies to it.
        let march2 = TaskQuery(forDayContaining: fixture.date(2026, 3, 2), calendar: fixture.calendar)
        let march6 = TaskQuery(forDayContaining: fixture.date(2026, 3, 6), calendar: fixture.calendar)
        #expect(try store.fetchTasks(march2).map(\.uuid) == [original.uuid])
        #expect(try store.fetchTasks(march6).map(\.uuid) == [updated.uuid])
    }

    @Test func refusesAnUpdateThatWouldOrphanOutcomes() throws {
        let task = try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1)))
        try store.addOutcome(
            NewOutcome(taskUUID: task.uuid, occurrence: 2, values: []), now: fixture.date(2026, 3, 3, 9, 30))
        var proposed = task
        proposed.effectiveDate = fixture.date(2026, 3, 3, 9)  // the start of the event with an outcome
        let before = try fixture.dump()
        #expect { try store.updateTask(proposed, now: fixture.date(2026, 3, 3, 10)) } throws: {
            guard case .care(.updateWouldOrphanOutcomes(taskID: "checkin", _, let latest))? = $0 as? CareStoreError
            else { return false }
            return latest == fixture.date(2026, 3, 3, 9)
        }
        #expect(try fixture.dump() == before)
        proposed.effectiveDate = fixture.date(2026, 3, 3, 9, 0, 1)
        #expect(try store.updateTask(proposed, now: fixture.date(2026, 3, 3, 10)).previousVersionUUID == task.uuid)
    }

    @Test func refusesUpdatingAnUnknownTask() throws {
        #expect {
            try store.updateTask(
                try fixture.dailyTask("nope", start: fixture.date(2026, 3, 1)), now: fixture.date(2026, 3, 1))
        } throws: { if case .unknownTask(id: "nope")? = $0 as? CareStoreError { true } else { false } }
    }

    @Test func deleteAppendsATombstoneThatHidesTheTask() throws {
        let task = try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1)))
        let tombstone = try store.deleteTask(id: "checkin", now: fixture.date(2026, 3, 5))
        #expect(tombstone.deletedDate == fixture.date(2026, 3, 5))
        #expect(tombstone.previousVersionUUID == task.uuid)
        #expect(try store.fetchTaskVersions(id: "checkin").versions.count == 2)
        #expect(try store.fetchTasks(TaskQuery()).isEmpty)
        #expect(
            try store.fetchTasks(TaskQuery(forDayContaining: fixture.date(2026, 3, 6), calendar: fixture.calendar))
                .isEmpty)
        let before = try fixture.dump()
        #expect { try store.deleteTask(id: "checkin", now: fixture.date(2026, 3, 6)) } throws: {
            if case .care(.taskDeleted("checkin"))? = $0 as? CareStoreError { true } else { false }
        }
        #expect { try store.updateTask(task, now: fixture.date(2026, 3, 6)) } throws: {
            if case .care(.taskDeleted("checkin"))? = $0 as? CareStoreError { true } else { false }
        }
        #expect(try fixture.dump() == before)
    }

    // MARK: - Queries

    @Test func dayQueryCanExcludeTasksWithNoEventsThatDay() throws {
        let start = fixture.date(2026, 3, 1)
        let everyOtherDay = CareTask(
            id: "stretch",
            schedule: try Schedule(composing: [
                try ScheduleElement(start: fixture.date(2026, 3, 1, 10), interval: .days(2), calendar: fixture.calendar)
            ]), createdDate: start)
        try store.addTasks([try fixture.dailyTask("checkin", start: start), everyOtherDay])
        let offDay = fixture.date(2026, 3, 2)
        let all = TaskQuery(forDayContaining: offDay, calendar: fixture.calendar)
        let withEvents = TaskQuery(
            forDayContaining: offDay, calendar: fixture.calendar, excludesTasksWithNoEvents: true)
        #expect(try store.fetchTasks(all).map(\.id) == ["checkin", "stretch"])
        #expect(try store.fetchTasks(withEvents).map(\.id) == ["checkin"])
        #expect(try store.fetchTasks(TaskQuery(ids: ["stretch"])).map(\.id) == ["stretch"])
    }

    @Test func refusesAnEmptyInterval() throws {
        let day = fixture.date(2026, 3, 1)
        #expect(throws: CareStoreError.self) {
            try store.fetchTasks(TaskQuery(dateInterval: DateInterval(start: day, end: day)))
        }
        #expect(throws: CareStoreError.self) { try store.fetchEvents(from: day, to: day) }
        #expect(throws: CareStoreError.self) { try store.fetchAdherence(from: day, to: day) }
    }
}
