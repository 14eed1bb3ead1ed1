import Foundation
import Testing

@testable import Care

@Suite struct ScheduleElementTests {
    let la = Calendars.losAngeles

    // MARK: - Iterative generation (values checked on Linux, care notes §2.2)

    @Test func monthlyFromJanuary31DriftsToThe28th() throws {
        let utc = Calendars.utc
        let element = try ScheduleElement(start: utc.date(2021, 1, 31, 8), interval: .months(1), calendar: utc)
        let events = element.events(from: utc.date(2021, 1, 1), to: utc.date(2021, 5, 1), calendar: utc)
        #expect(
            events.map { utc.parts($0.start) } == [
                [2021, 1, 31, 8, 0, 0], [2021, 2, 28, 8, 0, 0], [2021, 3, 28, 8, 0, 0], [2021, 4, 28, 8, 0, 0],
            ])
        #expect(events.map(\.occurrence) == [0, 1, 2, 3])
    }

    @Test func dailyAt0230MovesTo0330AfterTheSpringGapAndStays() throws {
        let element = try ScheduleElement(start: la.date(2021, 3, 12, 2, 30), interval: .days(1), calendar: la)
        let events = element.events(from: la.date(2021, 3, 12), to: la.date(2021, 3, 16), calendar: la)
        #expect(
            events.map { la.parts($0.start) } == [
                [2021, 3, 12, 2, 30, 0], [2021, 3, 13, 2, 30, 0], [2021, 3, 14, 3, 30, 0], [2021, 3, 15, 3, 30, 0],
            ])
        #expect(la.timeZone.secondsFromGMT(for: events[2].start) == -7 * 3600)
    }

    @Test(arguments: [(2021, 3, 14), (2021, 11, 7)])
    func dailyAt0800KeepsLocalTimeAcrossDST(year: Int, month: Int, day: Int) throws {
        let start = la.date(year, month, day - 3, 8)
        let element = try ScheduleElement(start: start, interval: .days(1), calendar: la)
        let events = element.events(from: start, to: la.date(year, month, day + 3), calendar: la)
        #expect(events.count == 6)
        #expect(events.allSatisfy { la.parts($0.start)[3...5] == [8, 0, 0] })
        #expect(events.allSatisfy { $0.end.timeIntervalSince($0.start) == 3600 })
    }

    @Test(arguments: [(3, 14, 82_799.0), (11, 7, 89_999.0), (6, 1, 86_399.0)])
    func allDayEventSpansTheLocalDay(month: Int, day: Int, seconds: Double) throws {
        let element = try ScheduleElement(
            start: la.date(2021, month, day, 15), interval: .days(1), duration: .allDay, calendar: la)
        let event = try #require(element.event(occurrence: 0, calendar: la))
        #expect(la.parts(event.start) == [2021, month, day, 0, 0, 0])
        #expect(la.parts(event.end) == [2021, month, day, 23, 59, 59])
        #expect(event.end.timeIntervalSince(event.start) == seconds)
    }

    @Test func weeklyFromPSTLandsOnPDTAtTheSameLocalTime() throws {
        let element = try ScheduleElement(start: la.date(2021, 3, 10, 8), interval: .weeks(1), calendar: la)
        let second = try #require(element.event(occurrence: 1, calendar: la))
        #expect(la.parts(second.start) == [2021, 3, 17, 8, 0, 0])
        #expect(la.timeZone.secondsFromGMT(for: second.start) == -7 * 3600)
    }

    // MARK: - Limits

    @Test func allDayElementEndingAtMidnightHasNoEventThatDay() throws {
        let element = try ScheduleElement(
            start: la.date(2021, 6, 1), end: la.date(2021, 6, 4), interval: .days(1), duration: .allDay, calendar: la)
        let events = element.events(from: la.date(2021, 5, 1), to: la.date(2021, 7, 1), calendar: la)
        #expect(events.map { la.parts($0.start)[2] } == [1, 2, 3])
    }

    @Test func allDayElementEndingDuringADayHasAnEventThatDay() throws {
        let element = try ScheduleElement(
            start: la.date(2021, 6, 1), end: la.date(2021, 6, 4, 0, 0, 1), interval: .days(1), duration: .allDay,
            calendar: la)
        let events = element.events(from: la.date(2021, 5, 1), to: la.date(2021, 7, 1), calendar: la)
        #expect(events.map { la.parts($0.start)[2] } == [1, 2, 3, 4])
    }

    @Test func fixedElementEndIsExclusive() throws {
        let element = try ScheduleElement(
            start: la.date(2021, 6, 1, 8), end: la.date(2021, 6, 3, 8), interval: .days(1), calendar: la)
        #expect(element.events(from: la.date(2021, 5, 1), to: la.date(2021, 7, 1), calendar: la).count == 2)
        #expect(element.event(occurrence: 2, calendar: la) == nil)
        #expect(element.event(occurrence: -1, calendar: la) == nil)
    }

    @Test func queryLowerBoundIsInclusiveOnEndUpperBoundExclusiveOnStart() throws {
        let element = try ScheduleElement(start: la.date(2021, 6, 1, 8), interval: .days(1), calendar: la)
        // Ends exactly at the query start: kept.
        let atEnd = element.events(from: la.date(2021, 6, 2, 9), to: la.date(2021, 6, 2, 10), calendar: la)
        #expect(atEnd.map(\.occurrence) == [1])
        // Starts exactly at the query end: not kept.
        let atStart = element.events(from: la.date(2021, 6, 2, 9, 0, 1), to: la.date(2021, 6, 3, 8), calendar: la)
        #expect(atStart.isEmpty)
    }

    @Test func emptyOrReversedQueryReturnsNothing() throws {
        let element = try ScheduleElement(start: la.date(2021, 6, 1, 8), interval: .days(1), calendar: la)
        #expect(element.events(from: la.date(2021, 6, 2), to: la.date(2021, 6, 2), calendar: la).isEmpty)
        #expect(element.events(from: la.date(2021, 6, 3), to: la.date(2021, 6, 2), calendar: la).isEmpty)
    }

    // MARK: - Validation

    @Test func rejectsEndNotAfterStart() {
        #expect(throws: ScheduleError.endNotAfterStart(start: la.date(2021, 6, 1), end: la.date(2021, 6, 1))) {
            try ScheduleElement(start: la.date(2021, 6, 1), end: la.date(2021, 6, 1), interval: .days(1), calendar: la)
        }
    }

    @Test(arguments: [ScheduleInterval(), .days(-1), ScheduleInterval(hours: -1, days: 1), .years(2000)])
    func rejectsIntervalsThatDoNotMoveForward(interval: ScheduleInterval) {
        #expect(throws: ScheduleError.invalidInterval(interval)) {
            try ScheduleElement(start: la.date(2021, 6, 1), interval: interval, calendar: la)
        }
    }

    @Test func rejectsAllDayElementWithHourlyInterval() {
        #expect(throws: ScheduleError.allDayIntervalNotWholeDays(.hours(24))) {
            try ScheduleElement(start: la.date(2021, 6, 1), interval: .hours(24), duration: .allDay, calendar: la)
        }
    }

    @Test(arguments: [-1.0, .nan, .infinity, 1e300])
    func rejectsInvalidDurations(seconds: Double) {
        #expect(throws: ScheduleError.self) {
            try ScheduleElement(
                start: la.date(2021, 6, 1), interval: .days(1), duration: .seconds(seconds), calendar: la)
        }
    }

    @Test func allDayStartIsNormalizedToStartOfDay() throws {
        let element = try ScheduleElement(
            start: la.date(2021, 6, 1, 13, 45), interval: .days(1), duration: .allDay, calendar: la)
        #expect(element.start == la.date(2021, 6, 1))
    }

    // MARK: - Codable

    @Test func roundTripsThroughJSON() throws {
        let element = try ScheduleElement(
            start: la.date(2021, 6, 1, 8), end: la.date(2021, 7, 1), interval: ScheduleInterval(hours: 2, days: 1),
            duration: .minutes(30), text: "Stretch",
            targetValues: [OutcomeValue(.integer(3), kind: "reps", createdDate: la.date(2021, 6, 1))], calendar: la)
        let data = try JSONEncoder().encode(element)
        #expect(try JSONDecoder().decode(ScheduleElement.self, from: data) == element)
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains(#""interval":{"#))
        #expect(json.contains(#""isAllDay":false"#))
    }

    @Test func decodingRejectsInvalidElement() {
        let json = #"{"start":0,"end":-10,"interval":{"days":1},"duration":{"isAllDay":true}}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ScheduleElement.self, from: Data(json.utf8))
        }
    }
}
