import Foundation
import Testing

import struct Sensor.SplitMix64

@testable import Care

@Suite struct CalendarDayTests {
    @Test(arguments: [
        "America/Los_Angeles", "Europe/London", "America/Santiago", "America/Havana", "Pacific/Apia",
        "Australia/Lord_Howe", "Asia/Kolkata", "UTC",
    ])
    func quickStartOfDayMatchesFoundation(zone: String) {
        let calendar = Calendars.gregorian(zone)
        var random = SplitMix64(seed: 0x5354_4152_54)
        let origin = calendar.date(2010, 1, 1)
        for _ in 0..<3000 {
            // Whole seconds over twenty years, a third of them near a local midnight.
            var date = origin.addingTimeInterval(Double(Int.random(in: 0..<(20 * 365 * 86_400), using: &random)))
            if Int.random(in: 0..<3, using: &random) == 0 {
                date = calendar.startOfDay(for: date).addingTimeInterval(
                    Double(Int.random(in: -7200...7200, using: &random)))
            }
            #expect(calendar.startOfDayQuickly(for: date) == calendar.startOfDay(for: date), "\(date) in \(zone)")
        }
    }

    @Test func quickStartOfDayHandlesTransitionDays() {
        let la = Calendars.losAngeles
        for date in [
            la.date(2021, 3, 14, 1, 59, 59), la.date(2021, 3, 14, 3), la.date(2021, 11, 7, 1, 30),
            la.date(2021, 11, 7, 23),
        ] {
            #expect(la.startOfDayQuickly(for: date) == la.startOfDay(for: date))
        }
        let santiago = Calendars.gregorian("America/Santiago")
        // Midnight does not exist on 2022-09-11 there: the day starts at 01:00.
        let day = santiago.startOfDay(for: santiago.date(2022, 9, 11, 12))
        #expect(santiago.startOfDayQuickly(for: santiago.date(2022, 9, 11, 12)) == day)
        #expect(santiago.parts(day)[3] == 1)
    }
}
