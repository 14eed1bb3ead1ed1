import Care
import CareStorage
import Foundation
import Fusion
import Testing

/// The one path of a range-of-motion result into the store, which `romdev measure` and the
/// daemon both take.
@Suite struct CareStoreMeasurementTests {
    let fixture: StoreFixture
    var store: CareStore { fixture.store }

    init() throws { fixture = try StoreFixture() }

    /// Float noise as fusion leaves it; stored and printed to hundredths.
    static let result = RangeOfMotionResult(
        start: 1.23456, finish: 2.0049, minimum: 0.7999999, maximum: 73.2049, kneeExtension: 16.7951,
        kneeFlexion: 89.2001, measurementProtocol: .arc, flags: [.unsteady, .movedAtStart])

    /// The Recover plan from 2026-06-07: a daily measurement for a week, then weekly.
    private func seed(onboarded: Bool = true) throws {
        let start = fixture.date(2026, 6, 7, 8)
        _ = try store.seedRecoverPlan(start: start, limb: .left, timeZone: fixture.calendar.timeZone, now: start)
        guard onboarded, let onboarding = try fixture.event(RecoverCarePlan.TaskID.onboarding, on: start) else {
            return
        }
        try store.addOutcome(
            NewOutcome(taskUUID: onboarding.task.uuid, occurrence: onboarding.scheduleEvent.occurrence, values: []),
            now: start)
    }

    private func record(_ task: MeasurementTask, at now: Date, limb: Limb? = nil) throws(MeasurementRecordingError)
        -> StoredOutcome
    {
        let target = try store.measurementTarget(task, at: now)
        return try store.recordMeasurement(Self.result, on: target, limb: limb, at: now)
    }

    @Test func storesTheReportedAnglesTheLimbTheProtocolAndTheFlags() throws {
        try seed()
        let now = fixture.date(2026, 6, 8, 9, 30)
        let stored = try record(.scheduled, at: now)
        #expect(stored.taskID == RecoverCarePlan.TaskID.rangeOfMotionCheck)
        #expect(stored.outcome.taskOccurrenceIndex == 1)
        #expect(stored.outcome.values == Self.result.outcomeValues(limb: .left, createdDate: now))
        let angles = Self.result.reported
        let numbers = stored.outcome.values.compactMap(\.numberValue)
        #expect(
            numbers == [
                angles.range, angles.start, angles.finish, angles.minimum, angles.maximum,
                angles.kneeExtension, angles.kneeFlexion, angles.kneeArc,
            ])
        #expect(numbers == [72.4, 1.23, 2, 0.8, 73.2, 16.8, 89.2, 72.4])
        #expect(
            stored.outcome.values.filter { $0.kind == RecoverCarePlan.Kind.flag }.map(\.value)
                == [.text("moved-at-start"), .text("unsteady")])
    }

    @Test func theJSONOfAResultCarriesTheStoredValuesUnderTheirKinds() throws {
        try seed()
        let now = fixture.date(2026, 6, 8, 9, 30)
        let stored = try record(.scheduled, at: now, limb: .right)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.result)) as? [String: Any]
        for value in stored.outcome.values {
            switch value.value {
            case .double(let number): #expect(json?[value.kind ?? ""] as? Double == number, "\(value.kind ?? "")")
            case .text(let text) where value.kind == RecoverCarePlan.Kind.measurementProtocol:
                #expect(json?["protocol"] as? String == text)
            default: break
            }
        }
        #expect(json?["units"] as? String == RecoverCarePlan.rangeOfMotionUnits)
        // Decoding gives the result as stored, which stores the same values again.
        let decoded = try JSONDecoder().decode(RangeOfMotionResult.self, from: JSONEncoder().encode(Self.result))
        #expect(decoded.outcomeValues(limb: .right, createdDate: now) == stored.outcome.values)
    }

    @Test func refusesWithoutAPlanOrBeforeOnboardingAndStoresNothing() throws {
        let now = fixture.date(2026, 6, 8, 9, 30)
        #expect { try store.measurementTarget(.scheduled, at: now) } throws: {
            if case .noCarePlan? = $0 as? MeasurementRecordingError { true } else { false }
        }
        try seed(onboarded: false)
        let before = try fixture.dump()
        for task in [MeasurementTask.scheduled, .unscheduled] {
            #expect { try store.measurementTarget(task, at: now) } throws: {
                if case .store(.onboardingRequired(task.taskID))? = $0 as? MeasurementRecordingError {
                    true
                } else {
                    false
                }
            }
        }
        #expect(try fixture.dump() == before)
    }

    @Test func aSecondMeasurementOfTheDayIsRefused() throws {
        try seed()
        _ = try record(.scheduled, at: fixture.date(2026, 6, 8, 9))
        let before = try fixture.dump()
        #expect { try store.measurementTarget(.scheduled, at: fixture.date(2026, 6, 8, 18)) } throws: {
            if case .alreadyRecorded("rangeOfMotionCheck", 1)? = $0 as? MeasurementRecordingError {
                true
            } else {
                false
            }
        }
        #expect(try fixture.dump() == before)
    }

    @Test func anUnusableResultIsNotStored() throws {
        try seed()
        let now = fixture.date(2026, 6, 8, 9)
        let target = try store.measurementTarget(.scheduled, at: now)
        let before = try fixture.dump()
        let still = RangeOfMotionResult(start: 0, finish: 0, minimum: -0.02, maximum: 0.06, flags: .noMovement)
        #expect { try store.recordMeasurement(still, on: target, limb: nil, at: now) } throws: {
            "\($0)" == "the measurement is not usable: the knee did not move (range 0.1°)"
        }
        #expect(try fixture.dump() == before)
    }

    @Test func unscheduledMeasurementsGoToTheirOwnTaskAddedOnFirstUseOncePerDay() throws {
        try seed()
        // Day 8 of the plan: between two weekly events.
        let now = fixture.date(2026, 6, 15, 9)
        #expect { try store.measurementTarget(.scheduled, at: now) } throws: {
            "\($0)" == "no range-of-motion measurement is due today (2026-06-15)"
        }
        let target = try store.measurementTarget(.unscheduled, at: now)
        #expect(target.event == nil)
        let stored = try store.recordMeasurement(Self.result, on: target, limb: nil, at: now)
        #expect(stored.taskID == RecoverCarePlan.TaskID.rangeOfMotionUnscheduled)
        let task = try #require(try store.fetchTasks(TaskQuery()).first { $0.id == stored.taskID })
        #expect(!task.impactsAdherence)
        #expect { try store.measurementTarget(.unscheduled, at: now.addingTimeInterval(3600)) } throws: {
            if case .alreadyRecorded("rangeOfMotionUnscheduled", 0)? = $0 as? MeasurementRecordingError {
                true
            } else {
                false
            }
        }
        // The next day has its event from the same task.
        #expect(try store.measurementTarget(.unscheduled, at: fixture.date(2026, 6, 16, 9)).event != nil)
    }

    @Test func aMeasurementEndingAfterMidnightGoesToTheDayItStarted() throws {
        try seed()
        let target = try store.measurementTarget(.scheduled, at: fixture.date(2026, 6, 8, 23, 59, 50))
        let stored = try store.recordMeasurement(
            Self.result, on: target, limb: nil, at: fixture.date(2026, 6, 9, 0, 0, 20))
        #expect(stored.outcome.eventStart == fixture.date(2026, 6, 8))
        #expect(
            try fixture.event(RecoverCarePlan.TaskID.rangeOfMotionCheck, on: fixture.date(2026, 6, 9))?.outcome == nil)
    }
}
