import Foundation
import Testing

@testable import RomdevCLI

@Suite struct DateArgumentTests {
    static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    @Test(arguments: [
        ("2026-06-07", 1_780_783_200.0),  // midnight in Paris (CEST)
        ("2026-06-07T08:00", 1_780_812_000),
        ("2026-06-07T08:00:30", 1_780_812_030),
        ("2026-06-07T08:00Z", 1_780_819_200),
        ("2026-06-07T08:00+02:00", 1_780_812_000),
        ("2026-06-07T08:00-0500", 1_780_837_200),
        ("2026-06-07T08:00:00+05:30", 1_780_799_400),
        ("2024-02-29", 1_709_161_200),
    ])
    func readsAcceptedForms(text: String, seconds: Double) throws {
        let argument = try #require(DateArgument(text))
        #expect(argument.date(in: Self.calendar("Europe/Paris")) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "", "2026-6-7", "2026-06-07T8:00", "2026-06-07 08:00", "2026-13-01", "2026-02-29", "2026-04-31",
        "2026-06-00", "2026-06-07T24:00", "2026-06-07T08:60", "2026-06-07T08:00:60", "2026-06-07T08:00+2",
        "2026-06-07T08:00+19:00", "2026-06-07Z08:00", "tomorrow", "2026-06-07T08:00Zx", "２０２６-06-07",
    ])
    func refusesOtherText(text: String) {
        #expect(DateArgument(text) == nil)
    }

    @Test func startOfDayIgnoresTimeAndUsesTheStoreDay() throws {
        let argument = try #require(DateArgument("2026-06-07T23:30-10:00"))
        #expect(argument.startOfDay(in: Self.calendar("Europe/Paris")) == Date(timeIntervalSince1970: 1_780_783_200))
    }

    @Test func startOfDayOnADayWithoutMidnight() throws {
        // Santiago skipped 2022-09-11 00:00 (clocks went to 01:00).
        let calendar = Self.calendar("America/Santiago")
        let start = try #require(DateArgument("2022-09-11")?.startOfDay(in: calendar))
        #expect(calendar.component(.day, from: start) == 11)
        #expect(calendar.component(.hour, from: start) == 1)
    }
}
