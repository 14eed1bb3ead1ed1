import Care
import CareStorage
import Foundation
import Testing

@Suite struct CareStoreEventTests {
    let fixture: StoreFixture
    var store: CareStore { fixture.store }

    init() throws { fixture = try StoreFixture() }

    @Test func eventsCarryTheirOutcomes() throws {
        let task = try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1)))
        let recorded = try store.addOutcome(
            NewOutcome(
                taskUUID: task.uuid, occurrence: 1,
                values: [
                    OutcomeValue(.integer(3), kind: "checkin.form.pain", createdDate: fixture.date(2026, 3, 2, 9, 5))
                ]), now: fixture.date(2026, 3, 2, 9, 5))
        let events = try store.fetchEvents(
            taskID: "checkin", from: fixture.date(2026, 3, 1), to: fixture.date(2026, 3, 4))
        #expect(events.map(\.scheduleEvent.occurrence) == [0, 1, 2])
        #expect(events.map { $0.outcome != nil } == [false, true, false])
        #expect(events[1].outcome == recorded.outcome)
    }

    @Test func eventsFollowTheVersionThatOwnsEachDay() throws {
        let v1 = try store.addTask(try fixture.dailyTask("checkin", start: fixture.date(2026, 3, 1)))
        try store.addOutcome(NewOutcome(taskUUID: v1.uuid, occurrence: 2, values: []), now: fixture.date(2026, 3, 3, 9))
        var proposed = try fixture.dailyTask("checkin", hour: 18, start: fixture.date(2026, 3, 1))
        proposed.effectiveDate = fixture.date(2026, 3, 5)
        let v2 = try store.updateTask(proposed, now: fixture.date(2026, 3, 4))
        try store.addOutcome(
            NewOutcome(taskUUID: v2.uuid, occurrence: 5, values: []), now: fixture.date(2026, 3, 6, 18))

        let events = try store.fetchEvents(
            taskID: "checkin", from: fixture.date(2026, 3, 1), to: fixture.date(2026, 3, 8))
        #expect(events.map(\.task.uuid) == [v1.uuid, v1.uuid, v1.uuid, v1.uuid, v2.uuid, v2.uuid, v2.uuid])
        #expect(events.map(\.scheduleEvent.occurrence) == [0, 1, 2, 3, 4, 5, 6])
        #expect(
            events.map { fixture.calendar.component(.hour, from: $0.scheduleEvent.start) } == [9, 9, 9, 9, 18, 18, 18])
        #expect(events.map { $0.outcome != nil } == [false, false, true, false, false, true, false])
    }

    @Test func eventsOfSeveralTasksAreOrderedByStart() throws {
        let start = fixture.date(2026, 3, 1)
        try store.addTasks([
            try fixture.dailyTask("evening", hour: 20, start: start),
            try fixture.dailyTask("morning", hour: 8, start: start),
        ])
        let events = try store.fetchEvents(from: start, to: fixture.date(2026, 3, 3))
        #expect(events.map(\.task.id) == ["morning", "evening", "morning", "evening"])
        #expect {
            try store.fetchEvents(taskIDs: ["morning", "nope"], from: start, to: fixture.date(2026, 3, 3))
        } throws: {
            if case .unknownTask(id: "nope")? = $0 as? CareStoreError { true } else { false }
        }
    }

    // MARK: - Adherence

    @Test func adherenceThroughTheStore() throws {
        let start = fixture.date(2026, 3, 1)
        let a = try store.addTask(try fixture.dailyTask("a", hour: 8, start: start))
        let b = try store.addTask(try fixture.dailyTask("b", hour: 20, start: start))
        let ignored = try store.addTask(try fixture.dailyTask("ignored", start: start, impactsAdherence: false))
        try store.addOutcomes(
            [
                NewOutcome(taskUUID: a.uuid, occurrence: 0, values: []),
                NewOutcome(taskUUID: b.uuid, occurrence: 0, values: []),
                NewOutcome(taskUUID: a.uuid, occurrence: 1, values: []),
                NewOutcome(taskUUID: ignored.uuid, occurrence: 2, values: []),
            ], now: fixture.date(2026, 3, 5))
        let days = try store.fetchAdherence(from: fixture.date(2026, 2, 28), to: fixture.date(2026, 3, 4))
        #expect(
            days.map(\.day) == [fixture.date(2026, 2, 28), start, fixture.date(2026, 3, 2), fixture.date(2026, 3, 3)])
        #expect(days.map(\.adherence) == [.noTasks, .progress(1), .progress(0.5), .progress(0)])
    }

    // MARK: - Time zones

    @Test func allDayEventsFollowDSTInTheStoresZone() throws {
        // America/Los_Angeles springs forward on 2026-03-08.
        let task = try store.addTask(
            CareTask(
                id: "allday",
                schedule: try .dailyAtTime(
                    hour: 0, minutes: 0, start: fixture.date(2026, 3, 6), duration: .allDay,
                    calendar: fixture.calendar),
                createdDate: fixture.date(2026, 3, 6)))
        let stored = try store.addOutcome(
            NewOutcome(taskUUID: task.uuid, occurrence: 2, values: []), now: fixture.date(2026, 3, 8, 12))
        #expect(stored.outcome.eventStart == fixture.date(2026, 3, 8))
        #expect(stored.outcome.eventEnd.timeIntervalSince(stored.outcome.eventStart) == 82_799)
        let day = fixture.calendar.dayInterval(containing: fixture.date(2026, 3, 8, 12))
        let events = try store.fetchEvents(taskID: "allday", from: day.start, to: day.end)
        #expect(events.map(\.scheduleEvent.occurrence) == [2])
        #expect(events.first?.outcome == stored.outcome)
    }

    @Test func fixedTimeEventsKeepLocalTimeAcrossDST() throws {
        try store.addTask(try fixture.dailyTask("checkin", hour: 9, start: fixture.date(2026, 3, 6)))
        let events = try store.fetchEvents(
            taskID: "checkin", from: fixture.date(2026, 3, 6), to: fixture.date(2026, 3, 10))
        #expect(events.map { fixture.calendar.component(.hour, from: $0.scheduleEvent.start) } == [9, 9, 9, 9])
        #expect(events[2].scheduleEvent.start.timeIntervalSince(events[1].scheduleEvent.start) == 23 * 3600)
        let week = try store.fetchAdherence(from: fixture.date(2026, 3, 6), to: fixture.date(2026, 3, 10))
        #expect(week.map(\.day) == [6, 7, 8, 9].map { fixture.date(2026, 3, $0) })
    }
}
