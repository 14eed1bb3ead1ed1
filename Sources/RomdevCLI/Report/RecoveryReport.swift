import Care

/// What the recovery report shows, as plain values: the page (``RecoveryReportPage``) is a pure
/// function of it, and ``RecoveryReport/read(from:window:now:)`` is the only part that reads the
/// store.
struct RecoveryReport: Hashable {
    /// The appliance's id.
    var deviceID: String
    /// The measured limb, once the plan is seeded.
    var limb: String?
    /// The plan's first day, `2026-06-07`, once seeded.
    var planStart: String?
    /// The store's time zone, which defines the days.
    var timeZone: String
    /// When the report was made, ISO 8601 in the store's zone.
    var generated: String
    /// Every day of the period, in order.
    var days: [Day]
    /// Every range-of-motion measurement of the period, in the order of their events.
    var measurements: [Measurement]
    /// Every check-in of the period.
    var checkIns: [CheckIn]
    /// Every outcome of the period, for the table.
    var outcomes: [OutcomeRow]

    /// One local day of the store's calendar.
    struct Day: Hashable {
        var year: Int
        var month: Int
        var dayOfMonth: Int
        /// What the plan asked of the range-of-motion task that day.
        var rangeOfMotion: Scheduling
        /// The day's adherence: the completion ring.
        var adherence: Adherence

        /// `2026-06-07`.
        var date: String {
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(year)-\(two(month))-\(two(dayOfMonth))"
        }
    }

    /// The scheduled range-of-motion check of a day.
    enum Scheduling: String, Hashable {
        /// The plan asks for no measurement that day.
        case notScheduled = "not-scheduled"
        /// Asked for and recorded.
        case recorded
        /// Asked for, not recorded, and the day is over.
        case missed
        /// Asked for, not recorded yet, and the day is not over.
        case due
    }

    /// One range-of-motion measurement.
    struct Measurement: Hashable {
        /// The index of its day in ``RecoveryReport/days``.
        var day: Int
        /// The recording's local time of day, `09:12`.
        var time: String
        /// Its angles in degrees, in stored order, by kind (`range`, `start`, …, `knee_flexion`).
        var angles: [Angle]
        /// Its quality flags (`moved-at-start`, …); empty when clean.
        var flags: [String]
        /// Taken outside the schedule.
        var isUnscheduled: Bool

        /// The range of motion, the value charted.
        var range: Double? { angles.first { $0.kind == RecoverCarePlan.Kind.range }?.degrees }
    }

    /// One angle of a measurement.
    struct Angle: Hashable {
        var kind: String
        var degrees: Double
    }

    /// One check-in.
    struct CheckIn: Hashable {
        /// The index of its day in ``RecoveryReport/days``.
        var day: Int
        /// Pain, 1–10.
        var pain: Double?
        /// Sleep in hours.
        var sleep: Double?
    }

    /// One outcome as the table shows it; the texts are as stored (the page escapes them).
    struct OutcomeRow: Hashable {
        var day: String
        var time: String
        var task: String
        /// `kind value units` per value that is not a flag.
        var values: [String]
        var flags: [String]
    }
}

extension RecoveryReport {
    /// The measurements the trend and the week averages use: those with a range and no flag.
    var cleanMeasurements: [Measurement] {
        measurements.filter { $0.flags.isEmpty && $0.range != nil }
    }

    /// The least-squares line through the clean ranges by day: the range at the first and at the
    /// last measured day. Nil with fewer than two measured days.
    var trend: (firstDay: Int, first: Double, lastDay: Int, last: Double)? {
        let points = cleanMeasurements.compactMap { m in m.range.map { (x: Double(m.day), y: $0) } }
        guard let low = points.map(\.x).min(), let high = points.map(\.x).max(), low < high else { return nil }
        let count = Double(points.count)
        let meanX = points.map(\.x).reduce(0, +) / count
        let meanY = points.map(\.y).reduce(0, +) / count
        let covariance: Double = points.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +)
        let variance: Double = points.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
        let slope = covariance / variance
        let first: Double = meanY + slope * (low - meanX)
        let last: Double = meanY + slope * (high - meanX)
        return (Int(low), first, Int(high), last)
    }

    /// The mean clean range of the first week (the seven days from the first clean measurement)
    /// and of the latest week (the seven days up to the last one). Nil unless the two weeks do
    /// not overlap.
    var weekChange: (firstWeek: Double, latestWeek: Double)? {
        let clean = cleanMeasurements
        guard let firstDay = clean.map(\.day).min(), let lastDay = clean.map(\.day).max(), lastDay - firstDay >= 7
        else { return nil }
        func mean(_ measurements: [Measurement]) -> Double {
            measurements.compactMap(\.range).reduce(0, +) / Double(measurements.count)
        }
        return (mean(clean.filter { $0.day < firstDay + 7 }), mean(clean.filter { $0.day > lastDay - 7 }))
    }

    /// Whether nothing was measured or checked in during the period.
    var isEmpty: Bool { measurements.isEmpty && checkIns.isEmpty }
}
