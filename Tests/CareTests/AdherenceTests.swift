import Foundation
import Testing

@testable import Care

@Suite struct AdherenceTests {
    let la = Calendars.losAngeles

    func june(_ from: Int, _ to: Int) -> DateInterval {
        DateInterval(start: la.date(2021, 6, from), end: la.date(2021, 6, to))
    }

    func adherence(
        _ interval: DateInterval, _ chains: [TaskVersionChain], _ outcomes: [Outcome] = [], ids: [String] = []
    ) -> [Adherence] {
        Adherence.daily(in: interval, chains: chains, outcomes: outcomes, taskIDs: ids, calendar: la).map(\.adherence)
    }

    @Test func onlyTasksThatDoNotImpactAdherenceGiveNoTasks() throws {
        let onboarding = try TaskVersionChain([
            Fixtures.task(1, schedule: Fixtures.daily(at: 8), impactsAdherence: false)
        ])
        #expect(adherence(june(1, 4), [onboarding]) == [.noTasks, .noTasks, .noTasks])
        #expect(adherence(june(1, 4), []) == [.noTasks, .noTasks, .noTasks])
    }

    @Test func daysBeforeTheScheduleHaveNoTasks() throws {
        let task = Fixtures.task(1, schedule: Fixtures.daily(at: 8, from: 3))
        let chain = try TaskVersionChain([task])
        let outcomes = [Fixtures.outcome(task, 0)]
        #expect(adherence(june(1, 5), [chain], outcomes) == [.noTasks, .noTasks, .progress(1), .progress(0)])
    }

    @Test func liveDayWithoutEventsIsNoEvents() throws {
        let element = try ScheduleElement(start: la.date(2021, 6, 1, 8), interval: .days(2), calendar: la)
        let chain = try TaskVersionChain([Fixtures.task(1, schedule: Schedule(composing: [element]))])
        #expect(adherence(june(1, 4), [chain]) == [.progress(0), .noEvents, .progress(0)])
    }

    @Test func progressIsTheShareOfEventsWithOutcomes() throws {
        let a = Fixtures.task(1, id: "a", schedule: Fixtures.daily(at: 8))
        let b = Fixtures.task(2, id: "b", schedule: Fixtures.daily(at: 9))
        let c = Fixtures.task(3, id: "c", schedule: Fixtures.daily(at: 10))
        let chains = try [a, b, c].map { try TaskVersionChain([$0]) }
        // June 1: all three; June 2: one of three (an outcome with no values still counts);
        // June 3: a deleted outcome does not count.
        let outcomes = [
            Fixtures.outcome(a, 0), Fixtures.outcome(b, 0), Fixtures.outcome(c, 0),
            Fixtures.outcome(b, 1, values: []),
            Fixtures.outcome(c, 2, deleted: la.date(2021, 6, 3, 12)),
        ]
        #expect(adherence(june(1, 4), chains, outcomes) == [.progress(1), .progress(1.0 / 3), .progress(0)])
        #expect(adherence(june(1, 3), chains, outcomes, ids: ["b"]) == [.progress(1), .progress(1)])
    }

    @Test func tasksThatDoNotImpactAdherenceAreLeftOut() throws {
        let counted = Fixtures.task(1, id: "counted", schedule: Fixtures.daily(at: 8))
        let ignored = Fixtures.task(2, id: "ignored", schedule: Fixtures.daily(at: 9), impactsAdherence: false)
        let chains = try [counted, ignored].map { try TaskVersionChain([$0]) }
        #expect(adherence(june(1, 2), chains, [Fixtures.outcome(counted, 0)]) == [.progress(1)])
    }

    @Test func daysAreLocalDaysAcrossDST() throws {
        let task = Fixtures.task(
            1, schedule: try Schedule.dailyAtTime(hour: 8, minutes: 0, start: la.date(2021, 3, 12), calendar: la))
        let days = Adherence.daily(
            in: DateInterval(start: la.date(2021, 3, 13), end: la.date(2021, 3, 16)),
            chains: [try TaskVersionChain([task])],
            outcomes: [Fixtures.outcome(task, 2)], calendar: la)
        #expect(
            days.map { la.parts($0.day) } == [
                [2021, 3, 13, 0, 0, 0], [2021, 3, 14, 0, 0, 0], [2021, 3, 15, 0, 0, 0],
            ])
        #expect(days.map(\.adherence) == [.progress(0), .progress(1), .progress(0)])
    }
}
