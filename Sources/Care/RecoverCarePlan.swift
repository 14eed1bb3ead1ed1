import Foundation

/// The Recover care plan after knee surgery (the WWDC21 CareKit code-along), built from a start
/// date and a calendar: onboarding, a daily check-in, and range-of-motion checks.
public enum RecoverCarePlan {
    /// Task ids.
    public enum TaskID {
        /// All-day every day until onboarding is done; does not count toward adherence.
        public static let onboarding = "onboarding"
        /// Daily 08:00 check-in: pain and sleep.
        public static let checkin = "checkin"
        /// Knee range-of-motion measurement.
        public static let rangeOfMotionCheck = "rangeOfMotionCheck"
        /// Range-of-motion measurements taken outside the schedule (see
        /// ``RecoverCarePlan/unscheduledRangeOfMotionTask(start:createdDate:calendar:)``).
        public static let rangeOfMotionUnscheduled = "rangeOfMotionUnscheduled"
    }

    /// Outcome value kinds.
    public enum Kind {
        /// Pain, integer 1–10, no units.
        public static let pain = "checkin.form.pain"
        /// Sleep in hours (units ``RecoverCarePlan/sleepUnits``), 0–12.
        public static let sleep = "checkin.form.sleep"
        /// Range of motion, with the meaning of ResearchKit's `ORKRangeOfMotionResult` fields, in
        /// degrees (units ``RecoverCarePlan/rangeOfMotionUnits``): the inclination at the start pose.
        public static let start = "start"
        /// Inclination when the measurement finished.
        public static let finish = "finish"
        /// Smallest inclination reached (the knee most flexed).
        public static let minimum = "minimum"
        /// Largest inclination reached (the knee most extended).
        public static let maximum = "maximum"
        /// The excursion from most flexed to most extended; the one value Recover stored.
        public static let range = "range"
        /// The knee joint angles in the clinical convention (0° straight, flexion positive), degrees:
        /// the smallest flexion reached (positive an extension lag, negative a hyperextension).
        public static let kneeExtension = "knee_extension"
        /// The largest knee flexion reached.
        public static let kneeFlexion = "knee_flexion"
        /// `knee_flexion − knee_extension`.
        public static let kneeArc = "knee_arc"
        /// What the measurement guided the patient through, `extension` or `arc` (text).
        public static let measurementProtocol = "protocol"
        /// Where the knee angles come from (text): `seated-assumption` (one sensor, the thigh taken
        /// as level and still) or `thigh-sensor` (both sensors' orientations).
        public static let kneeSource = "knee_source"
        /// Which knee a range-of-motion measurement is of, `left` or `right` (text).
        public static let limb = "limb"
        /// A reason to distrust a range-of-motion measurement (text, one value per reason), e.g.
        /// `moved-at-start`; none when the measurement is clean.
        public static let flag = "flag"
    }

    /// Units of the sleep value: hours.
    public static let sleepUnits = "h"
    /// Units of the range-of-motion values: degrees.
    public static let rangeOfMotionUnits = "deg"

    /// The plan's three tasks, in the order onboarding, check-in, range of motion.
    ///
    /// - Parameters:
    ///   - start: Any instant of the plan's first day.
    ///   - createdDate: The `now` of creation.
    ///   - calendar: The calendar and time zone of the patient.
    ///   - includesFlexion: Whether the range-of-motion task asks for the full arc (see
    ///     ``rangeOfMotionTask(start:createdDate:calendar:includesFlexion:)``).
    public static func tasks(
        start: Date, createdDate: Date, calendar: Calendar, includesFlexion: Bool = false
    ) throws(ScheduleError) -> [CareTask] {
        [
            try onboardingTask(start: start, createdDate: createdDate, calendar: calendar),
            try checkinTask(start: start, createdDate: createdDate, calendar: calendar),
            try rangeOfMotionTask(
                start: start, createdDate: createdDate, calendar: calendar, includesFlexion: includesFlexion),
        ]
    }

    /// Onboarding: an all-day event every day from the start day; it does not impact adherence.
    public static func onboardingTask(start: Date, createdDate: Date, calendar: Calendar) throws(ScheduleError)
        -> CareTask
    {
        CareTask(
            id: TaskID.onboarding, title: "Onboard",
            instructions: "You'll need to agree to some terms and conditions before we get started!",
            impactsAdherence: false,
            schedule: try .dailyAtTime(
                hour: 0, minutes: 0, start: start, text: "Task Due!", duration: .allDay, calendar: calendar),
            createdDate: createdDate)
    }

    /// Check-in: daily 08:00–09:00 local time from the start day (effective from 08:00 that day).
    public static func checkinTask(start: Date, createdDate: Date, calendar: Calendar) throws(ScheduleError) -> CareTask
    {
        CareTask(
            id: TaskID.checkin, title: "Check In",
            instructions: "Rate your pain from 1 to 10 and say how many hours you slept.",
            schedule: try .dailyAtTime(hour: 8, minutes: 0, start: start, duration: .hours(1), calendar: calendar),
            createdDate: createdDate)
    }

    /// Range of motion: all-day, every day for the first seven days (days 0–6), then weekly from day
    /// 7 until one month after the start day (days 7, 14, 21 and 28 when the month is longer than 28
    /// days), then never. No day has two events.
    ///
    /// The daily element ends exactly at the first instant of day 7, which (by the all-day end rule)
    /// excludes day 7, and the weekly element starts there. The WWDC21 code ends the daily element
    /// at "now + 1 week", keeping the time of day, so its day 7 gets an event from both elements.
    ///
    /// With `includesFlexion` the instructions ask for the full arc: after the extension, the foot
    /// slides back under the chair as far as it goes, and back.
    public static func rangeOfMotionTask(
        start: Date, createdDate: Date, calendar: Calendar, includesFlexion: Bool = false
    ) throws(ScheduleError) -> CareTask {
        let firstDay = calendar.startOfDay(for: start)
        let weekLater = try startOfDay(adding: DateComponents(day: 7), to: firstDay, calendar: calendar)
        let monthLater = try startOfDay(adding: DateComponents(month: 1), to: firstDay, calendar: calendar)
        let daily = try ScheduleElement(
            start: firstDay, end: weekLater, interval: .days(1), duration: .allDay, calendar: calendar)
        let weekly = try ScheduleElement(
            start: weekLater, end: monthLater, interval: .weeks(1), duration: .allDay, calendar: calendar)
        return CareTask(
            id: TaskID.rangeOfMotionCheck, title: "Range Of Motion",
            instructions: includesFlexion
                ? "Sit on the edge of a chair, the lower leg hanging, with the sensor strapped below the knee."
                    + " Press the button and hold still; at the two rising beeps straighten your knee as far as"
                    + " you can, lower it to the start position and hold still; at the two falling beeps slide"
                    + " your foot back under the chair as far as you can, return to the start position and"
                    + " hold still until the three rising tones."
                : "Sit on the edge of a chair, the lower leg hanging, with the sensor strapped below the knee."
                    + " Press the button and hold still; at the two rising beeps straighten your knee as far as"
                    + " you can, lower it to the start position and hold still until the three rising tones.",
            schedule: try Schedule(composing: [daily, weekly]),
            createdDate: createdDate)
    }

    /// The task of measurements taken outside the plan's schedule. The store only keeps outcomes
    /// of scheduled events (one per event), so they go to a task of their own: all day, every day
    /// from `start`'s day, not counted in adherence. It is added on first use rather than seeded,
    /// so a plan that never needs it never shows it.
    public static func unscheduledRangeOfMotionTask(
        start: Date, createdDate: Date, calendar: Calendar
    ) throws(ScheduleError) -> CareTask {
        let element = try ScheduleElement(
            start: calendar.startOfDay(for: start), interval: .days(1), duration: .allDay, calendar: calendar)
        return CareTask(
            id: TaskID.rangeOfMotionUnscheduled, title: "Range Of Motion (unscheduled)",
            instructions: "A range-of-motion measurement taken outside the schedule ('romdev measure --unscheduled').",
            impactsAdherence: false, schedule: try Schedule(composing: [element]), createdDate: createdDate)
    }

    /// The first instant of the day reached by adding `components` from noon of `day`, so a day
    /// whose midnight does not exist (DST at 00:00) still yields that day's first instant.
    private static func startOfDay(adding components: DateComponents, to day: Date, calendar: Calendar)
        throws(ScheduleError) -> Date
    {
        guard let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: day),
            let later = calendar.date(byAdding: components, to: noon)
        else { throw .invalidTimeOfDay(hour: 12, minutes: 0) }
        return calendar.startOfDay(for: later)
    }

    /// The knee joint angles of a measurement, degrees, clinical convention.
    public struct KneeAngles: Hashable, Sendable {
        /// The smallest flexion reached.
        public var extensionDegrees: Double
        /// The largest flexion reached.
        public var flexionDegrees: Double

        public init(extensionDegrees: Double, flexionDegrees: Double) {
            self.extensionDegrees = extensionDegrees
            self.flexionDegrees = flexionDegrees
        }
    }

    /// The outcome values of one range-of-motion measurement: the five angles in degrees (range =
    /// maximum − minimum), `range` first (the one value Recover stored, so a reader that takes the first value gets it), then
    /// start, finish, minimum, maximum; the knee angles when given (knee_extension, knee_flexion,
    /// knee_arc = flexion − extension as stored); then the measured limb (text, kind ``Kind/limb``)
    /// when given, the protocol (text, kind ``Kind/measurementProtocol``) when given, the knee
    /// angles' source (text, kind ``Kind/kneeSource``) when given, and one text value of kind
    /// ``Kind/flag`` per quality flag, so exports show them.
    public static func rangeOfMotionValues(
        startDegrees: Double, finishDegrees: Double, minimumDegrees: Double, maximumDegrees: Double,
        knee: KneeAngles? = nil, limb: String? = nil, measurementProtocol: String? = nil, kneeSource: String? = nil,
        flags: [String] = [], createdDate: Date
    ) -> [OutcomeValue] {
        // Hundredths of a degree: far finer than the measurement's accuracy, without the float
        // noise (65.95648630778541, -7.95e-16) that would pass for precision in exports. The
        // range is taken from the stored extremes, so range = maximum − minimum holds exactly as
        // stored.
        func hundredths(_ degrees: Double) -> Double { (degrees * 100).rounded() / 100 + 0 }
        let minimum = hundredths(minimumDegrees)
        let maximum = hundredths(maximumDegrees)
        let range = hundredths(maximum - minimum)
        var degrees = [
            (Kind.range, range), (Kind.start, hundredths(startDegrees)), (Kind.finish, hundredths(finishDegrees)),
            (Kind.minimum, minimum), (Kind.maximum, maximum),
        ]
        if let knee {
            let extensionValue = hundredths(knee.extensionDegrees)
            let flexion = hundredths(knee.flexionDegrees)
            degrees += [
                (Kind.kneeExtension, extensionValue), (Kind.kneeFlexion, flexion),
                (Kind.kneeArc, hundredths(flexion - extensionValue)),
            ]
        }
        let angles = degrees.map {
            OutcomeValue(.double($0.1), kind: $0.0, units: rangeOfMotionUnits, createdDate: createdDate)
        }
        let named = [(Kind.limb, limb), (Kind.measurementProtocol, measurementProtocol), (Kind.kneeSource, kneeSource)]
        let texts = named.compactMap { kind, text in
            text.map { OutcomeValue(.text($0), kind: kind, createdDate: createdDate) }
        }
        return angles + texts + flags.map { OutcomeValue(.text($0), kind: Kind.flag, createdDate: createdDate) }
    }
}
