import Care
import CareStorage
import Foundation
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
        guard case .created(let settings) = try seed() else { Issue.record("not created"); return }
        #expect(settings.limb == .left)
        #expect(settings.timeZone == zone)
        #expect(settings.start == Date(timeIntervalSince1970: 1_780_815_600))  // 2026-06-07 00:00 PDT
        #expect(try store.fetchTasks(TaskQuery()).map(\.id) == ["onboarding", "checkin", "rangeOfMotionCheck"])
        #expect(store.calendar.timeZone == zone)

        let before = try fixture.dump()
        let again = try store.seedRecoverPlan(start: Date(timeIntervalSince1970: 0), limb: .right,
                                              timeZone: TimeZone(identifier: "UTC")!, now: Date(timeIntervalSince1970: 0))
        #expect(again == .alreadyPresent(settings))
        #expect(try fixture.dump() == before)
        #expect(try store.carePlanSettings() == settings)
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
        #expect { try seed() } throws: { if case .duplicateTaskID("checkin")? = $0 as? CareStoreError { true } else { false } }
        #expect(try fixture.dump() == before)
    }

    // MARK: - Onboarding gate

    private func firstEvent(_ taskID: String) throws -> Event {
        let settings = try #require(try store.carePlanSettings())
        return try #require(try store.fetchEvents(taskID: taskID, from: settings.start,
                                                  to: settings.start.addingTimeInterval(86_400)).first)
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
        try store.deleteOutcome(taskID: "onboarding", occurrence: onboarding.scheduleEvent.occurrence,
                                now: onboarding.scheduleEvent.start)
        let rom = try firstEvent("rangeOfMotionCheck")
        #expect { try store.addOutcome(outcome(for: rom), now: rom.scheduleEvent.start) } throws: {
            if case .onboardingRequired(taskID: "rangeOfMotionCheck")? = $0 as? CareStoreError { true } else { false }
        }
    }

    @Test func withoutAnOnboardingTaskThereIsNoGate() throws {
        let task = try store.addTask(try fixture.dailyTask("checkin", start: Date(timeIntervalSince1970: 1_780_000_000)))
        #expect(try !store.isOnboardingPending())
        try store.addOutcome(NewOutcome(taskUUID: task.uuid, occurrence: 0, values: []), now: Date(timeIntervalSince1970: 1_780_000_000))
    }
}
