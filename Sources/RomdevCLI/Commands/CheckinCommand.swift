import Care
import CareStorage
import Foundation

/// `romdev checkin`: records the day's pain and sleep answers.
struct CheckinCommand: CommandAction, Hashable {
    static let pain = Option.value(
        "pain", valueName: "n", help: "Pain from 1 (least) to 10 (worst), a whole number.", isRequired: true)
    static let sleep = Option.value(
        "sleep", valueName: "hours", help: "Hours of sleep last night, 0 to 12 in steps of 0.5.", isRequired: true)
    static let date = Option.value("date", valueName: "date", help: "The day of the check-in (default: today).")

    static let command = Command(
        name: "checkin", abstract: "Record the daily check-in: pain and sleep.",
        discussion: """
            Records the outcome of the day's checkin event with two values: pain (kind
            checkin.form.pain, integer) and sleep (kind checkin.form.sleep, double, units h).
            A day has one check-in; delete it with 'romdev outcome delete' to record it again.
            """,
        options: [pain, sleep, date] + StoreOptions.options,
        make: { try CheckinCommand($0) })

    var painScore: Double
    var sleepHours: Double
    var day: DateArgument?
    var store: StoreOptions

    init(painScore: Double, sleepHours: Double, day: DateArgument?, store: StoreOptions) {
        self.painScore = painScore
        self.sleepHours = sleepHours
        self.day = day
        self.store = store
    }

    init(_ values: ParsedValues) throws {
        // Any decimal number; ranges are the care rules' to check.
        painScore = try values.required(Self.pain, NumberArgument.decimal)
        sleepHours = try values.required(Self.sleep, NumberArgument.decimal)
        day = try values.value(Self.date, DateArgument.parse)
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let what = "could not record the check-in"
        // The answers are checked before the store is opened: a refused answer changes nothing.
        let checkIn = try attempt(what) { try CheckIn(pain: painScore, sleepHours: sleepHours) }
        let careStore = try store.open(in: context, access: .readWrite)
        try CareDay.requirePlan(careStore, doing: what)
        let calendar = careStore.calendar
        let now = context.now()
        let interval = try CareDay.interval(day, now: now, calendar: calendar)
        let event = try CareDay.firstEvent(of: RecoverCarePlan.TaskID.checkin, on: interval, in: careStore, doing: what)
        let values = checkIn.outcomeValues(createdDate: now)
        do {
            try careStore.addOutcome(
                NewOutcome(taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence, values: values),
                now: now)
        } catch .care(.duplicateOutcome) {
            throw CommandFailure(
                what, why: "the check-in of \(LocalTime.day(interval.start, calendar: calendar)) is already recorded",
                hint:
                    "to replace it, first run 'romdev outcome delete --task checkin --occurrence \(event.scheduleEvent.occurrence)'"
            )
        } catch {
            throw CommandFailure(what, why: "\(error)", hint: error.hint)
        }
        context.output.line(
            "Recorded the check-in for \(LocalTime.day(interval.start, calendar: calendar))"
                + " (occurrence \(event.scheduleEvent.occurrence)): " + CareOutput.summary(values, calendar: calendar))
    }
}
