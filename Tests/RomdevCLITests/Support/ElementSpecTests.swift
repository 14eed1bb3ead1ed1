import Care
import Foundation
import Testing

@testable import RomdevCLI

@Suite struct ElementSpecTests {
    static let paris: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
        return calendar
    }()

    @Test func readsEveryField() throws {
        let spec = try ElementSpec(
            parsing: "start=2026-06-07T00:00,end=2026-06-14T00:00,every=1d,duration=allday,text=Before, breakfast")
        #expect(spec.start == DateArgument("2026-06-07T00:00"))
        #expect(spec.end == DateArgument("2026-06-14T00:00"))
        #expect(spec.interval == .days(1))
        #expect(spec.duration == .allDay)
        #expect(spec.text == "Before, breakfast")
    }

    @Test func fieldsInAnyOrderWithDefaults() throws {
        let spec = try ElementSpec(parsing: "every=2h,start=2026-06-07T08:00")
        #expect(spec.end == nil)
        #expect(spec.interval == .hours(2))
        #expect(spec.duration == .hours(1))
        #expect(spec.text == nil)
    }

    @Test(arguments: [
        ("30s", ScheduleInterval.seconds(30)), ("2h", .hours(2)), ("1d", .days(1)), ("1w", .weeks(1)),
        ("1mo", .months(1)), ("1y", .years(1)), ("15m", .minutes(15)), ("1d12h", ScheduleInterval(hours: 12, days: 1)),
    ])
    func readsIntervals(text: String, interval: ScheduleInterval) throws {
        #expect(try ElementSpec(parsing: "start=2026-06-07,every=\(text)").interval == interval)
    }

    @Test(arguments: [
        ("allday", ScheduleDuration.allDay), ("1h", .hours(1)), ("90s", .seconds(90)), ("30m", .minutes(30)),
        ("1h30m", .minutes(90)), ("0s", .seconds(0)),
    ])
    func readsDurations(text: String, duration: ScheduleDuration) throws {
        #expect(try ElementSpec(parsing: "start=2026-06-07,every=1d,duration=\(text)").duration == duration)
    }

    @Test(arguments: [
        ("", ElementSpecError.missingField("start")),
        ("every=1d", .missingField("start")),
        ("start=2026-06-07", .missingField("every")),
        ("start=2026-06-07,every=1d,", .emptyField),
        ("start=2026-06-07,,every=1d", .emptyField),
        ("start=2026-06-07,every", .notKeyValue("every")),
        ("start=2026-06-07,every=1d,colour=red", .unknownField("colour")),
        ("start=2026-06-07,start=2026-06-08,every=1d", .repeatedField("start")),
        ("start=tomorrow,every=1d", .invalidValue(field: "start", value: "tomorrow")),
        ("start=2026-02-30,every=1d", .invalidValue(field: "start", value: "2026-02-30")),
        ("start=2026-06-07,end=2026-06-07T25:00,every=1d", .invalidValue(field: "end", value: "2026-06-07T25:00")),
        ("start=2026-06-07,every=1q", .invalidValue(field: "every", value: "1q")),
        ("start=2026-06-07,every=d", .invalidValue(field: "every", value: "d")),
        ("start=2026-06-07,every=0d", .invalidValue(field: "every", value: "0d")),
        ("start=2026-06-07,every=-1d", .invalidValue(field: "every", value: "-1d")),
        ("start=2026-06-07,every=1d1d", .invalidValue(field: "every", value: "1d1d")),
        ("start=2026-06-07,every=1d ", .invalidValue(field: "every", value: "1d ")),
        ("start=2026-06-07,every=99999999999d", .invalidValue(field: "every", value: "99999999999d")),
        ("start=2026-06-07,every=1d,duration=1d", .invalidValue(field: "duration", value: "1d")),
        ("start=2026-06-07,every=1d,duration=forever", .invalidValue(field: "duration", value: "forever")),
        ("start=2026-06-07,every=1d,duration=", .invalidValue(field: "duration", value: "")),
    ])
    func namesTheFieldAtFault(spec: String, error: ElementSpecError) {
        #expect(throws: error) { try ElementSpec(parsing: spec) }
    }

    @Test func messagesNameTheField() {
        #expect(
            ElementSpecError.unknownField("colour").description
                == "unknown field 'colour' (fields: start, end, every, duration, text)")
        #expect(
            ElementSpecError.invalidValue(field: "every", value: "1q").description.hasPrefix(
                "field 'every' has an invalid value '1q'"))
    }

    @Test func buildsTheElementInTheStoreZone() throws {
        let spec = try ElementSpec(parsing: "start=2026-06-07T08:00,end=2026-06-14T00:00,every=1d,duration=1h")
        let element = try spec.element(calendar: Self.paris)
        #expect(element.start == Date(timeIntervalSince1970: 1_780_812_000))  // 06:00 UTC
        #expect(element.interval == .days(1))
        #expect(element.duration == .hours(1))
    }

    @Test func scheduleRulesAreCheckedWhenBuilding() throws {
        let backwards = try ElementSpec(parsing: "start=2026-06-07,end=2026-06-01,every=1d")
        #expect(throws: ScheduleError.self) { try backwards.element(calendar: Self.paris) }
        let hourlyAllDay = try ElementSpec(parsing: "start=2026-06-07,every=2h,duration=allday")
        #expect(throws: ScheduleError.self) { try hourlyAllDay.element(calendar: Self.paris) }
    }

    @Test(arguments: [
        "start=2026-06-07T00:00,end=2026-06-14T00:00,every=1d,duration=allday,text=A, b",
        "start=2026-06-07T08:00,every=1w,duration=1h30m",
        "start=2026-03-29T02:30,every=1d12h,duration=90s",
        "start=2026-06-07T08:00:15,every=1mo,duration=0s",
    ])
    func formatsBackToAnEquivalentSpec(text: String) throws {
        let element = try ElementSpec(parsing: text).element(calendar: Self.paris)
        let formatted = ElementSpec.format(element, calendar: Self.paris)
        #expect(try ElementSpec(parsing: formatted).element(calendar: Self.paris) == element)
    }
}
