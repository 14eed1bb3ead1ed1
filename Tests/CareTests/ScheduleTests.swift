import Foundation
import Testing

@testable import Care

@Suite struct ScheduleTests {
    let la = Calendars.losAngeles

    /// Daily 08:00 from June 1 and every 12 hours at 20:00 from June 3: the two merge.
    func twoElementSchedule() throws -> Schedule {
        let daily = try ScheduleElement(start: la.date(2021, 6, 1, 8), interval: .days(1), calendar: la)
        let twiceDaily = try ScheduleElement(
            start: la.date(2021, 6, 3, 20), end: la.date(2021, 6, 5), interval: .hours(12), calendar: la)
        return try Schedule(composing: [twiceDaily, daily])
    }

    // MARK: - Composition

    @Test func composingSortsElementsByStartStably() throws {
        let a = try ScheduleElement(start: la.date(2021, 6, 2), interval: .days(1), text: "a", calendar: la)
        let b = try ScheduleElement(start: la.date(2021, 6, 1), interval: .days(1), text: "b", calendar: la)
        let c = try ScheduleElement(start: la.date(2021, 6, 2), interval: .days(2), text: "c", calendar: la)
        let schedule = try Schedule(composing: [a, b, c])
        #expect(schedule.elements.map(\.text) == ["b", "a", "c"])
        #expect(schedule.startDate == la.date(2021, 6, 1))
        #expect(schedule.endDate == nil)
    }

    @Test func theEventRateIsBoundedAtOneEveryFifteenMinutes() throws {
        func bound(_ intervals: [ScheduleInterval]) throws -> Int {
            try Schedule(
                composing: intervals.map { try ScheduleElement(start: la.date(2021, 6, 1), interval: $0, calendar: la) }
            )
            .eventsPerDayBound
        }
        #expect(try bound([.days(1)]) == 1)
        #expect(try bound([.days(1), .days(1), .months(1)]) == 3)
        #expect(try bound([.hours(7)]) == 4)
        #expect(try bound([.minutes(15)]) == 96)
        #expect(try bound([.seconds(1)]) == 86_400)
        let spam = try Schedule(composing: [
            try ScheduleElement(start: la.date(2000, 1, 1), interval: .seconds(1), calendar: la)
        ])
        #expect(throws: ScheduleError.tooManyEventsPerDay(86_400, maximum: 96)) { try spam.checkEventRate() }
        let dense = try Schedule(
            composing: try (0..<97).map { _ in
                try ScheduleElement(start: la.date(2021, 6, 1), interval: .days(1), calendar: la)
            })
        #expect(throws: ScheduleError.tooManyEventsPerDay(97, maximum: 96)) { try dense.checkEventRate() }
        try Schedule(composing: [try ScheduleElement(start: la.date(2021, 6, 1), interval: .minutes(15), calendar: la)])
            .checkEventRate()
    }

    @Test func rejectsEmptyComposition() {
        #expect(throws: ScheduleError.noElements) { try Schedule(composing: []) }
    }

    @Test func endDateIsTheLatestElementEnd() throws {
        let a = try ScheduleElement(
            start: la.date(2021, 6, 1), end: la.date(2021, 6, 9), interval: .days(1), calendar: la)
        let b = try ScheduleElement(
            start: la.date(2021, 6, 2), end: la.date(2021, 6, 5), interval: .days(1), calendar: la)
        #expect(try Schedule(composing: [a, b]).endDate == la.date(2021, 6, 9))
    }

    // MARK: - Global occurrence indices

    @Test func occurrenceIndicesAreGlobalAcrossElements() throws {
        let schedule = try twoElementSchedule()
        let events = schedule.events(from: la.date(2021, 6, 1), to: la.date(2021, 6, 6), calendar: la)
        #expect(
            events.map { la.parts($0.start)[2...3] } == [
                [1, 8], [2, 8], [3, 8], [3, 20], [4, 8], [4, 8], [4, 20], [5, 8],
            ])
        #expect(events.map(\.occurrence) == Array(0..<8))
        // On the tie at June 4 08:00 the element sorted first (the daily one) comes first.
        #expect(events[4].element == schedule.elements[0])
    }

    @Test func laterWindowKeepsGlobalIndices() throws {
        let schedule = try twoElementSchedule()
        let events = schedule.events(from: la.date(2021, 6, 4), to: la.date(2021, 6, 5), calendar: la)
        #expect(events.map(\.occurrence) == [4, 5, 6])
    }

    @Test func eventForOccurrenceIndexMatchesTheMerge() throws {
        let schedule = try twoElementSchedule()
        let events = schedule.events(from: la.date(2021, 6, 1), to: la.date(2021, 6, 10), calendar: la)
        for event in events {
            #expect(schedule.event(forOccurrenceIndex: event.occurrence, calendar: la) == event)
        }
        #expect(schedule.event(forOccurrenceIndex: -1, calendar: la) == nil)
    }

    @Test func eventForOccurrenceIndexPastTheEndIsNil() throws {
        let element = try ScheduleElement(
            start: la.date(2021, 6, 1), end: la.date(2021, 6, 3), interval: .days(1), calendar: la)
        let schedule = try Schedule(composing: [element, element])
        #expect(schedule.event(forOccurrenceIndex: 3, calendar: la) != nil)
        #expect(schedule.event(forOccurrenceIndex: 4, calendar: la) == nil)
    }

    @Test(arguments: [1_000_000_000, Int.max])
    func hugeOccurrenceIndicesBeyondTheHorizonAreNil(occurrence: Int) throws {
        let single = try Schedule.dailyAtTime(hour: 8, minutes: 0, start: la.date(2021, 6, 1), calendar: la)
        #expect(single.event(forOccurrenceIndex: occurrence, calendar: la) == nil)
        let utc = Calendars.utc
        let daily = try ScheduleElement(start: utc.date(2021, 6, 1, 8), interval: .days(1), calendar: utc)
        let hourly = try ScheduleElement(start: utc.date(2021, 6, 1, 9), interval: .hours(36), calendar: utc)
        #expect(try Schedule(composing: [daily, hourly]).event(forOccurrenceIndex: occurrence, calendar: utc) == nil)
    }

    @Test func dropsEventsOfElementsThatEndedBeforeTheQuery() throws {
        // The all-day event of June 3 reaches past 13:00, but its element ended at 12:00.
        let element = try ScheduleElement(
            start: la.date(2021, 6, 1), end: la.date(2021, 6, 3, 12), interval: .days(1), duration: .allDay,
            calendar: la)
        let schedule = try Schedule(composing: [element])
        #expect(
            schedule.events(from: la.date(2021, 6, 3, 11), to: la.date(2021, 6, 4), calendar: la).map(\.occurrence) == [
                2
            ])
        #expect(schedule.events(from: la.date(2021, 6, 3, 13), to: la.date(2021, 6, 4), calendar: la).isEmpty)
    }

    @Test func emptyOrReversedQueryReturnsNothing() throws {
        let schedule = try twoElementSchedule()
        #expect(schedule.events(from: la.date(2021, 6, 4), to: la.date(2021, 6, 4), calendar: la).isEmpty)
        #expect(schedule.events(from: la.date(2021, 6, 5), to: la.date(2021, 6, 4), calendar: la).isEmpty)
    }

    // MARK: - Days

    @Test func dayIntervalRunsFromMidnightTo235959() {
        let day = la.dayInterval(containing: la.date(2021, 3, 14, 15))
        #expect(day.start == la.date(2021, 3, 14))
        #expect(la.parts(day.end) == [2021, 3, 14, 23, 59, 59])
        #expect(day.duration == 82_799)
    }

    @Test func allDayEventIsOnlyOnItsOwnDay() throws {
        let element = try ScheduleElement(
            start: la.date(2021, 6, 2), end: la.date(2021, 6, 3), interval: .days(1), duration: .allDay, calendar: la)
        let schedule = try Schedule(composing: [element])
        func count(on day: Int) -> Int {
            let interval = la.dayInterval(containing: la.date(2021, 6, day, 12))
            return schedule.events(from: interval.start, to: interval.end, calendar: la).count
        }
        #expect((1...3).map { count(on: $0) } == [0, 1, 0])
    }

    @Test func multiDayFixedEventIsOnEveryDayItOverlaps() throws {
        let element = try ScheduleElement(
            start: la.date(2021, 6, 1, 20), interval: .days(7), duration: .hours(50), calendar: la)
        let schedule = try Schedule(composing: [element])
        let days = (1...5).map { day in
            let interval = la.dayInterval(containing: la.date(2021, 6, day, 12))
            return schedule.events(from: interval.start, to: interval.end, calendar: la).count
        }
        // June 1 20:00 to June 3 22:00, then June 8.
        #expect(days == [1, 1, 1, 0, 0])
    }

    @Test func fixedEventStartingAt235959IsNotOnThatDay() throws {
        let element = try ScheduleElement(
            start: la.date(2021, 6, 1, 23, 59, 59), interval: .days(1), duration: .seconds(0), calendar: la)
        let schedule = try Schedule(composing: [element])
        let day = la.dayInterval(containing: la.date(2021, 6, 1))
        #expect(schedule.events(from: day.start, to: day.end, calendar: la).isEmpty)
    }

    @Test func existsOnDay() throws {
        let finite = try Schedule(composing: [
            ScheduleElement(start: la.date(2021, 6, 2, 9), end: la.date(2021, 6, 4), interval: .days(1), calendar: la)
        ])
        #expect(
            (1...4).map { finite.exists(onDay: la.date(2021, 6, $0, 12), calendar: la) } == [false, true, true, false])
        let infinite = try Schedule.dailyAtTime(hour: 9, minutes: 0, start: la.date(2021, 6, 2), calendar: la)
        #expect((1...3).map { infinite.exists(onDay: la.date(2021, 6, $0, 12), calendar: la) } == [false, true, true])
    }

    // MARK: - Factories

    @Test func dailyAtTimeStartsOnTheSameDayEvenWhenThatTimeHasPassed() throws {
        let schedule = try Schedule.dailyAtTime(
            hour: 8, minutes: 0, start: la.date(2021, 6, 1, 15), text: "Check in", calendar: la)
        let first = try #require(schedule.event(forOccurrenceIndex: 0, calendar: la))
        #expect(la.parts(first.start) == [2021, 6, 1, 8, 0, 0])
        #expect(first.end.timeIntervalSince(first.start) == 3600)
        #expect(first.element.text == "Check in")
    }

    @Test func weeklyAtTimeMovesForwardToTheWeekday() throws {
        // June 1 2021 is a Tuesday; weekday 5 is Thursday.
        let schedule = try Schedule.weeklyAtTime(
            weekday: 5, hours: 18, minutes: 30, start: la.date(2021, 6, 1, 10), calendar: la)
        let events = schedule.events(from: la.date(2021, 6, 1), to: la.date(2021, 6, 18), calendar: la)
        #expect(
            events.map { la.parts($0.start) } == [
                [2021, 6, 3, 18, 30, 0], [2021, 6, 10, 18, 30, 0], [2021, 6, 17, 18, 30, 0],
            ])
        let sameDay = try Schedule.weeklyAtTime(
            weekday: 3, hours: 7, minutes: 0, start: la.date(2021, 6, 1, 10), calendar: la)
        #expect(sameDay.startDate == la.date(2021, 6, 1, 7))
    }

    @Test func factoriesRejectInvalidTimes() {
        #expect(throws: ScheduleError.invalidTimeOfDay(hour: 24, minutes: 0)) {
            try Schedule.dailyAtTime(hour: 24, minutes: 0, start: la.date(2021, 6, 1), calendar: la)
        }
        #expect(throws: ScheduleError.invalidWeekday(8)) {
            try Schedule.weeklyAtTime(weekday: 8, hours: 7, minutes: 0, start: la.date(2021, 6, 1), calendar: la)
        }
    }

    @Test func roundTripsThroughJSON() throws {
        let schedule = try twoElementSchedule()
        let decoded = try JSONDecoder().decode(Schedule.self, from: JSONEncoder().encode(schedule))
        #expect(decoded == schedule)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Schedule.self, from: Data(#"{"elements":[]}"#.utf8))
        }
    }
}
