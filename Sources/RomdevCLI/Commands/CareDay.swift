import Care
import CareStorage
import Foundation

/// Helpers for commands that work on one local day of the store's calendar.
enum CareDay {
    /// The day named by `argument`, or the day of `now`, as CareKit's day interval (00:00:00 to
    /// 23:59:59 local time).
    static func interval(_ argument: DateArgument?, now: Date, calendar: Calendar) throws -> DateInterval {
        guard let argument else { return calendar.dayInterval(containing: now) }
        guard let start = argument.startOfDay(in: calendar) else {
            throw CommandFailure("the day \(argument) does not exist in \(calendar.timeZone.identifier)")
        }
        return calendar.dayInterval(containing: start)
    }

    /// The instant a date argument names in the store's calendar.
    static func instant(_ argument: DateArgument, calendar: Calendar, doing what: String) throws -> Date {
        guard let date = argument.date(in: calendar) else {
            throw CommandFailure(what, why: "the date \(argument) does not exist in \(calendar.timeZone.identifier)")
        }
        return date
    }

    /// The first event of a task on a day, or a failure saying there is none.
    static func firstEvent(of taskID: String, on day: DateInterval, in store: CareStore, doing what: String) throws
        -> Event
    {
        let events = try attempt(what) { try store.fetchEvents(taskID: taskID, from: day.start, to: day.end) }
        guard let event = events.first else {
            let dayText = LocalTime.day(day.start, calendar: store.calendar)
            throw CommandFailure(
                what, why: "task '\(taskID)' has no event on \(dayText)",
                hint: "'romdev events --task \(taskID) --from DATE --to DATE' lists its events")
        }
        return event
    }

    /// The store must hold the Recover plan (seeded by `romdev init`).
    static func requirePlan(_ store: CareStore, doing what: String) throws {
        let settings = try attempt(what) { try store.carePlanSettings() }
        if settings == nil {
            throw CommandFailure(what, why: "the store has no care plan", hint: "run 'romdev init' first")
        }
    }

    /// Refuses a `--from`/`--to` window longer than a query takes (``CareStore/maximumQueryDays``)
    /// with exit status 64: the command line asks for too much, whatever the store holds.
    static func checkWindowLength(
        from: Date, to: Date, _ start: DateArgument, _ end: DateArgument, doing what: String
    ) throws {
        do {
            try CareStore.checkQueryInterval(from: from, to: to)
        } catch .intervalTooLong(_, _, let maximumDays) {
            throw CommandFailure(
                what,
                why:
                    "--from \(start) to --to \(end) is longer than \(maximumDays) days, the longest window a query takes",
                hint: "ask for shorter windows, one after the other", exitStatus: 64)
        } catch {
            throw CommandFailure(what, why: "--to \(end) must be after --from \(start)")
        }
    }
}
