import Foundation
import Testing

@testable import Care

@Suite struct TaskQueryTests {
    let la = Calendars.losAngeles

    func ids(_ query: TaskQuery, _ chains: [TaskVersionChain]) -> [String] {
        query.tasks(in: chains, calendar: la).map(\.id)
    }

    func everyOtherDay() throws -> TaskVersionChain {
        let element = try ScheduleElement(start: la.date(2021, 6, 1, 8), interval: .days(2), calendar: la)
        return try TaskVersionChain([Fixtures.task(1, id: "stretch", schedule: Schedule(composing: [element]))])
    }

    @Test func excludesTasksWithNoEventsOnlyWhenAsked() throws {
        let chains = [try everyOtherDay()]
        let offDay = la.date(2021, 6, 2)
        #expect(ids(TaskQuery(forDayContaining: offDay, calendar: la), chains) == ["stretch"])
        #expect(ids(TaskQuery(forDayContaining: offDay, calendar: la, excludesTasksWithNoEvents: true), chains).isEmpty)
        #expect(
            ids(TaskQuery(forDayContaining: la.date(2021, 6, 3), calendar: la, excludesTasksWithNoEvents: true), chains)
                == ["stretch"])
    }

    @Test func finishedScheduleIsNotReturnedAfterItsEnd() throws {
        let chain = try TaskVersionChain([Fixtures.task(1, schedule: Fixtures.daily(at: 8, end: la.date(2021, 6, 4)))])
        #expect(ids(TaskQuery(forDayContaining: la.date(2021, 6, 3), calendar: la), [chain]) == ["exercise"])
        #expect(ids(TaskQuery(forDayContaining: la.date(2021, 6, 5), calendar: la), [chain]).isEmpty)
    }

    @Test func taskStartingLaterIsNotReturnedBefore() throws {
        let chain = try TaskVersionChain([Fixtures.task(1, schedule: Fixtures.daily(at: 8, from: 10))])
        #expect(ids(TaskQuery(forDayContaining: la.date(2021, 6, 9), calendar: la), [chain]).isEmpty)
        #expect(ids(TaskQuery(forDayContaining: la.date(2021, 6, 10), calendar: la), [chain]) == ["exercise"])
    }

    @Test func filtersByIDAndKeepsChainOrder() throws {
        let a = try TaskVersionChain([Fixtures.task(1, id: "a", schedule: Fixtures.daily(at: 8))])
        let b = try TaskVersionChain([Fixtures.task(2, id: "b", schedule: Fixtures.daily(at: 9))])
        let day = la.date(2021, 6, 3)
        #expect(ids(TaskQuery(forDayContaining: day, calendar: la), [b, a]) == ["b", "a"])
        #expect(ids(TaskQuery(forDayContaining: day, calendar: la, ids: ["a"]), [b, a]) == ["a"])
    }

    @Test func withoutAnIntervalReturnsHeadsOfLiveTasks() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let v2 = Fixtures.task(2, schedule: Fixtures.daily(at: 9), effective: la.date(2021, 7, 1), previous: 1)
        let live = try TaskVersionChain([v1, v2])
        let gone = try TaskVersionChain([Fixtures.task(3, id: "gone", schedule: Fixtures.daily(at: 8))])
            .deleting(uuid: Fixtures.uuid(4), now: la.date(2021, 6, 2))
        #expect(TaskQuery().tasks(in: [live, gone], calendar: la).map(\.uuid) == [v2.uuid])
    }

    @Test func returnsTheVersionThatAppliesToTheDay() throws {
        let v1 = Fixtures.task(1, schedule: Fixtures.daily(at: 8))
        let v2 = Fixtures.task(2, schedule: Fixtures.daily(at: 9), effective: la.date(2021, 6, 5), previous: 1)
        let chain = try TaskVersionChain([v1, v2])
        #expect(
            TaskQuery(forDayContaining: la.date(2021, 6, 4), calendar: la).tasks(in: [chain], calendar: la).map(\.uuid)
                == [v1.uuid])
        #expect(
            TaskQuery(forDayContaining: la.date(2021, 6, 5), calendar: la).tasks(in: [chain], calendar: la).map(\.uuid)
                == [v2.uuid])
    }
}
