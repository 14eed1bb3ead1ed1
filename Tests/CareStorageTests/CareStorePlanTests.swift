import Care
import CareStorage
import Foundation
import SQLite
import Testing

@Suite struct CareStorePlanTests {
    let fixture: StoreFixture
    var store: CareStore { fixture.store }

    init() throws { fixture = try StoreFixture(timeZone: "UTC") }

    private let zone = TimeZone(identifier: "America/Los_Angeles")!

    private func seed() throws -> CarePlanSeeding {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.date(from: DateComponents(year: 2026, month: 6, day: 7, hour: 15))!
        return try store.seedRecoverPlan(start: start, limb: .left, timeZone: zone, now: start)
    }

    // MARK: - Seeding

    @Test func seedingCreatesThePlanOnce() throws {
        guard case .created(let settings) = try seed() else {
            Issue.record("not created")
            return
        }
        #expect(settings.limb == .left)
        #expect(settings.timeZone == zone)
        #expect(settings.start == Date(timeIntervalSince1970: 1_780_815_600))  // 2026-06-07 00:00 PDT
        #expect(try store.fetchTasks(TaskQuery()).map(\.id) == ["onboarding", "checkin", "rangeOfMotionCheck"])
        #expect(store.calendar.timeZone == zone)

        let before = try fixture.dump()
        let again = try store.seedRecoverPlan(
            start: Date(timeIntervalSince1970: 0), limb: .right,
            timeZone: TimeZone(identifier: "UTC")!, now: Date(timeIntervalSince1970: 0))
        #expect(again == .alreadyPresent(settings))
        #expect(try fixture.dump() == before)
        #expect(try store.carePlanSettings() == settings)
    }

    @Test func thePlanSaysWhichProtocolTheRangeOfMotionTaskAsksFor() throws {
        guard case .created(let settings) = try seed() else {
            Issue.record("not created")
            return
        }
        #expect(settings.rangeOfMotionProtocol == .extension)
        let arcFixture = try StoreFixture()
        let created = try arcFixture.store.seedRecoverPlan(
            start: Date(timeIntervalSince1970: 1_780_840_800), limb: .left, timeZone: zone, rangeOfMotionProtocol: .arc,
            now: Date(timeIntervalSince1970: 1_780_840_800))
        guard case .created(let arc) = created else {
            Issue.record("not created")
            return
        }
        #expect(arc.rangeOfMotionProtocol == .arc)
        #expect(try arcFixture.store.carePlanSettings()?.rangeOfMotionProtocol == .arc)
        // The task's instructions say so too.
        let task = try #require(try arcFixture.store.fetchTasks(TaskQuery(ids: ["rangeOfMotionCheck"])).first)
        #expect(task.instructions?.contains("slide your foot back under the chair") == true)
        // An unknown protocol is an error, not a silent extension.
        try store.setMetadata("cartwheel", for: .rangeOfMotionProtocol)
        #expect { try store.carePlanSettings() } throws: {
            if case .invalidMetadata(let key, let value)? = $0 as? CareStoreError {
                key == "rom_protocol" && value == "cartwheel"
            } else {
                false
            }
        }
    }

    @Test func theStoresZoneOutlivesTheProcess() throws {
        _ = try seed()
        let reopened = try CareStore(path: fixture.path, timeZone: TimeZone(identifier: "UTC")!)
        #expect(reopened.calendar.timeZone == zone)
        let metadata = try reopened.storeMetadata()
        #expect(metadata.timeZone == zone)
        #expect(metadata.limb == .left)
    }

    @Test func seedingRefusesAPlanIDTakenByHand() throws {
        try store.addTask(try fixture.dailyTask("checkin", start: Date(timeIntervalSince1970: 1_780_000_000)))
        let before = try fixture.dump()
        #expect { try seed() } throws: {
            if case .duplicateTaskID("checkin")? = $0 as? CareStoreError { true } else { false }
        }
        #expect(try fixture.dump() == before)
    }

    // MARK: - Onboarding gate

    private func firstEvent(_ taskID: String) throws -> Event {
        let settings = try #require(try store.carePlanSettings())
        return try #require(
            try store.fetchEvents(
                taskID: taskID, from: settings.start,
                to: settings.start.addingTimeInterval(86_400)
            ).first)
    }

    private func outcome(for event: Event) -> NewOutcome {
        NewOutcome(taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence, values: [])
    }

    @Test func nothingButOnboardingIsRecordedBeforeOnboarding() throws {
        _ = try seed()
        let checkin = try firstEvent("checkin")
        let onboarding = try firstEvent("onboarding")
        let before = try fixture.dump()
        #expect { try store.addOutcome(outcome(for: checkin), now: checkin.scheduleEvent.start) } throws: {
            if case .onboardingRequired(taskID: "checkin")? = $0 as? CareStoreError { true } else { false }
        }
        // A batch that records onboarding after the check-in fails whole.
        #expect(throws: CareStoreError.self) {
            try store.addOutcomes([outcome(for: checkin), outcome(for: onboarding)], now: checkin.scheduleEvent.start)
        }
        #expect(try fixture.dump() == before)

        #expect(try store.isOnboardingPending())
        try store.addOutcomes([outcome(for: onboarding), outcome(for: checkin)], now: checkin.scheduleEvent.start)
        #expect(try store.fetchOutcomes().map(\.taskID) == ["onboarding", "checkin"])
        #expect(try !store.isOnboardingPending())
    }

    @Test func deletingTheOnboardingOutcomeClosesTheGateAgain() throws {
        _ = try seed()
        let onboarding = try firstEvent("onboarding")
        try store.addOutcome(outcome(for: onboarding), now: onboarding.scheduleEvent.start)
        try store.deleteOutcome(
            taskID: "onboarding", occurrence: onboarding.scheduleEvent.occurrence,
            now: onboarding.scheduleEvent.start)
        let rom = try firstEvent("rangeOfMotionCheck")
        #expect { try store.addOutcome(outcome(for: rom), now: rom.scheduleEvent.start) } throws: {
            if case .onboardingRequired(taskID: "rangeOfMotionCheck")? = $0 as? CareStoreError { true } else { false }
        }
    }

    @Test func theOnboardingTaskCannotBeDeletedSoTheGateHolds() throws {
        _ = try seed()
        let before = try fixture.dump()
        let now = try firstEvent("onboarding").scheduleEvent.start
        #expect { try store.deleteTask(id: "onboarding", now: now) } throws: {
            if case .onboardingTaskKept? = $0 as? CareStoreError { true } else { false }
        }
        // Not in a batch either.
        #expect(throws: CareStoreError.self) { try store.deleteTasks(ids: ["checkin", "onboarding"], now: now) }
        #expect(try fixture.dump() == before)
        let checkin = try firstEvent("checkin")
        #expect(try store.isOnboardingPending())
        #expect { try store.addOutcome(outcome(for: checkin), now: checkin.scheduleEvent.start) } throws: {
            if case .onboardingRequired(let taskID)? = $0 as? CareStoreError { taskID == "checkin" } else { false }
        }
        #expect(throws: CareStoreError.self) { try store.checkOnboardingDone(recording: "rangeOfMotionCheck") }
        try store.checkOnboardingDone(recording: "onboarding")
    }

    @Test func aStoreWhoseOnboardingTaskWasDeletedWithoutConsentStaysGated() throws {
        _ = try seed()
        // What an older romdev allowed: a tombstone on onboarding, without any outcome.
        let chain = try store.fetchTaskVersions(id: "onboarding")
        let database = try Database(path: fixture.path)
        try database.write { db in
            try db.execute(
                """
                INSERT INTO task (uuid, id, title, impacts_adherence, schedule, effective_date, deleted_date,
                                  created_date, previous_uuid)
                SELECT ?, id, title, impacts_adherence, schedule, effective_date, created_date, created_date, uuid
                FROM task WHERE uuid = ?
                """, [UUID().uuidString, chain.versions[0].uuid.uuidString])
        }
        #expect(try store.fetchTaskVersions(id: "onboarding").isDeleted)
        #expect(try store.isOnboardingPending())
        let checkin = try firstEvent("checkin")
        #expect(throws: CareStoreError.self) {
            try store.addOutcome(outcome(for: checkin), now: checkin.scheduleEvent.start)
        }
    }

    @Test func withoutAnOnboardingTaskThereIsNoGate() throws {
        let task = try store.addTask(
            try fixture.dailyTask("checkin", start: Date(timeIntervalSince1970: 1_780_000_000)))
        #expect(try !store.isOnboardingPending())
        try store.addOutcome(
            NewOutcome(taskUUID: task.uuid, occurrence: 0, values: []), now: Date(timeIntervalSince1970: 1_780_000_000))
    }
}
