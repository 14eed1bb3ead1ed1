import Foundation

extension Adherence {
    /// Adherence per local day ([CK] store API `fetchAdherence`).
    ///
    /// 1. The tasks are those of a ``TaskQuery`` over `interval` (and `taskIDs`), keeping only those
    ///    whose applying version `impactsAdherence`. If none remain, every day is ``noTasks``.
    /// 2. Their events in `interval` (across versions) are grouped by the local day of their start.
    /// 3. Each day is ``noTasks`` when no remaining task's schedule ``Schedule/exists(onDay:calendar:)``,
    ///    else ``noEvents`` when it has no events, else ``progress(_:)``: the share of events that
    ///    have a live outcome.
    ///
    /// - Parameters:
    ///   - interval: The days are those starting at the start of `interval.start`'s day, one day
    ///     apart, while before `interval.end`.
    ///   - chains: Every task's version chain.
    ///   - outcomes: The tasks' outcomes; deleted ones are ignored.
    ///   - taskIDs: Tasks to consider; empty means all.
    ///   - calendar: The calendar and time zone that define days.
    /// - Returns: One entry per day, in order.
    public static func daily(
        in interval: DateInterval, chains: [TaskVersionChain], outcomes: [Outcome],
        taskIDs: [String] = [], calendar: Calendar
    ) -> [DailyAdherence] {
        let days = Self.days(in: interval, calendar: calendar)
        let tasks = TaskQuery(ids: taskIDs, dateInterval: interval).tasks(in: chains, calendar: calendar)
            .filter(\.impactsAdherence)
        guard !tasks.isEmpty else { return days.map { DailyAdherence(day: $0, adherence: .noTasks) } }

        let taskIDs = Set(tasks.map(\.id))
        let counts = eventCounts(
            days: days, in: interval, chains: chains.filter { taskIDs.contains($0.id) }, outcomes: outcomes,
            calendar: calendar)
        return days.map { day in
            let dayInterval = calendar.dayInterval(containing: day)
            guard tasks.contains(where: { $0.schedule.exists(on: dayInterval) }) else {
                return DailyAdherence(day: day, adherence: .noTasks)
            }
            guard let count = counts[day], count.events > 0 else {
                return DailyAdherence(day: day, adherence: .noEvents)
            }
            return DailyAdherence(day: day, adherence: .progress(Double(count.completed) / Double(count.events)))
        }
    }

    /// How many events start on each day, and how many of them have an outcome. The events are
    /// built a month of days at a time, so memory stays that of one month however long the range.
    private static func eventCounts(
        days: [Date], in interval: DateInterval, chains: [TaskVersionChain], outcomes: [Outcome], calendar: Calendar
    ) -> [Date: (events: Int, completed: Int)] {
        var counts: [Date: (events: Int, completed: Int)] = [:]
        // Each chain joins only its own versions' outcomes; handing every chain all of them
        // made a long history cost the number of tasks times the number of outcomes.
        let outcomesByVersion = Dictionary(grouping: outcomes) { $0.taskUUID }
        let ownOutcomes = chains.map { chain in
            OutcomesByEvent(chain.versions.flatMap { outcomesByVersion[$0.uuid] ?? [] })
        }
        let chunkDays = 31
        for first in stride(from: 0, to: days.count, by: chunkDays) {
            let chunkStart = first == 0 ? interval.start : days[first]
            let chunkEnd = first + chunkDays < days.count ? days[first + chunkDays] : interval.end
            for (chain, own) in zip(chains, ownOutcomes) {
                for event in chain.events(from: chunkStart, to: chunkEnd, outcomes: own, calendar: calendar) {
                    let start = event.scheduleEvent.start
                    // An event that began in an earlier chunk was counted there.
                    guard first == 0 || start >= chunkStart else { continue }
                    let day = calendar.startOfDayQuickly(for: start)
                    counts[day, default: (0, 0)].events += 1
                    if event.outcome != nil { counts[day, default: (0, 0)].completed += 1 }
                }
            }
        }
        return counts
    }

    private static func days(in interval: DateInterval, calendar: Calendar) -> [Date] {
        var days: [Date] = []
        var day = calendar.startOfDayQuickly(for: interval.start)
        while day < interval.end {
            days.append(day)
            // Step from noon so a day without midnight (DST at 00:00) cannot trap the loop.
            guard let noon = calendar.date(byAdding: .hour, value: 12, to: day),
                let next = calendar.date(byAdding: .day, value: 1, to: noon)
            else { break }
            day = calendar.startOfDayQuickly(for: next)
        }
        return days
    }
}
