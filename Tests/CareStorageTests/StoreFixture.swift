import Care
import CareStorage
import Foundation
import SQLite
import TestSupport

/// A care store in a fresh temporary directory, with a calendar pinned to a DST zone and
/// helpers for fixed dates. The directory goes with the fixture.
final class StoreFixture {
    let directory: TemporaryDirectory
    let path: String
    let calendar: Calendar
    let store: CareStore

    init(timeZone: String = "America/Los_Angeles") throws {
        directory = try TemporaryDirectory()
        path = directory.path("care.sqlite")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone)!
        self.calendar = calendar
        store = try CareStore(path: path, timeZone: calendar.timeZone)
    }

    /// A local date in the fixture's zone.
    func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        calendar.date(
            from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    /// A task with one event a day at `hour`:00 for an hour, from `start`'s day.
    func dailyTask(_ id: String, hour: Int = 9, start: Date, impactsAdherence: Bool = true) throws -> CareTask {
        CareTask(
            id: id, title: id.capitalized, impactsAdherence: impactsAdherence,
            schedule: try .dailyAtTime(hour: hour, minutes: 0, start: start, calendar: calendar),
            createdDate: start)
    }

    /// Every row of every table, as text, in a stable order: equal dumps mean an unchanged store.
    func dump() throws -> [String] {
        let database = try Database(path: path)
        return try database.read { db in
            var lines: [String] = []
            for (table, order) in [
                ("task", "rowid"), ("outcome", "rowid"), ("outcome_value", "outcome_uuid, position"),
                ("meta", "key"), ("schema_migrations", "rowid"),
            ] {
                for row in try db.fetchAll("SELECT * FROM \(table) ORDER BY \(order)") {
                    lines.append("\(table): \(row.values)")
                }
            }
            return lines
        }
    }

    /// The first event of a task on the local day containing `date`.
    func event(_ taskID: String, on date: Date) throws -> Event? {
        let day = calendar.dayInterval(containing: date)
        return try store.fetchEvents(taskID: taskID, from: day.start, to: day.end).first
    }
}
