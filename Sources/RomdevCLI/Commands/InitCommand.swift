import Care
import CareStorage
import Foundation

/// `romdev init`: creates the store and seeds the Recover care plan, once.
struct InitCommand: CommandAction, Hashable {
    static let start = Option.value(
        "start", valueName: "date", help: "The plan's first day (default: today in the plan's time zone).")
    static let limb = Option.value(
        "limb", valueName: "limb", help: "The knee measured.", allowedValues: Limb.allCases.map(\.rawValue),
        defaultValue: "left")
    static let rangeOfMotionProtocol = Option.value(
        "protocol", valueName: "protocol",
        help:
            "What the range-of-motion task asks for: extension, or arc (extension, then the foot back under the chair).",
        allowedValues: RangeOfMotionProtocol.allCases.map(\.rawValue),
        defaultValue: RangeOfMotionProtocol.extension.rawValue)
    static let timeZone = Option.value(
        "tz", valueName: "zone",
        help: "The patient's time zone, e.g. Europe/Paris (default: the system's). It defines the plan's days.")

    static let command = Command(
        name: "init", abstract: "Create the care store and the Recover care plan.",
        discussion: """
            Seeds three tasks: onboarding (all day, every day until done), checkin (daily
            08:00-09:00: pain and sleep) and rangeOfMotionCheck (all day, daily for the first
            7 days, then weekly until one month after the start). Running it again changes
            nothing and says so. --protocol arc makes the range-of-motion task ask for the
            full arc (measure and the daemon then follow it unless told otherwise).
            """,
        options: [start, limb, rangeOfMotionProtocol, timeZone] + StoreOptions.options,
        make: { try InitCommand($0) })

    var startDay: DateArgument?
    var limb: Limb
    var rangeOfMotionProtocol: RangeOfMotionProtocol
    var timeZone: TimeZone?
    var store: StoreOptions

    init(
        startDay: DateArgument?, limb: Limb, rangeOfMotionProtocol: RangeOfMotionProtocol = .extension,
        timeZone: TimeZone?, store: StoreOptions
    ) {
        self.startDay = startDay
        self.limb = limb
        self.rangeOfMotionProtocol = rangeOfMotionProtocol
        self.timeZone = timeZone
        self.store = store
    }

    init(_ values: ParsedValues) throws {
        startDay = try values.value(Self.start, DateArgument.parse)
        limb = try values.required(Self.limb) { Limb(rawValue: $0) }
        rangeOfMotionProtocol = try values.required(Self.rangeOfMotionProtocol) { RangeOfMotionProtocol(rawValue: $0) }
        timeZone = try values.value(Self.timeZone) { text -> TimeZone in
            guard let zone = TimeZone(careIdentifier: text) else { throw UnknownTimeZone() }
            return zone
        }
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let zone = timeZone ?? context.defaultTimeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let now = context.now()
        let start = startDay.flatMap { $0.startOfDay(in: calendar) } ?? now
        let careStore = try store.open(in: context, access: .initialize, timeZone: zone)
        let seeding = try attempt("could not create the care plan in \(careStore.path)") {
            try careStore.seedRecoverPlan(
                start: start, limb: limb, timeZone: zone, rangeOfMotionProtocol: rangeOfMotionProtocol, now: now)
        }
        switch seeding {
        case .created(let settings):
            context.output.line("Created the care plan in \(careStore.path)")
            context.output.line(Self.describe(settings))
            context.output.line("Next: romdev onboard --consent-by NAME")
        case .alreadyPresent(let settings):
            context.output.line("Already initialised; nothing changed (\(careStore.path))")
            context.output.line(Self.describe(settings))
        }
    }

    private static func describe(_ settings: CarePlanSettings) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = settings.timeZone
        return "  start \(LocalTime.day(settings.start, calendar: calendar)), limb \(settings.limb.rawValue),"
            + " time zone \(settings.timeZone.identifier), protocol \(settings.rangeOfMotionProtocol.rawValue)"
    }
}

/// A `--tz` value that names no time zone.
struct UnknownTimeZone: Error, CustomStringConvertible {
    var description: String { "unknown time zone (use an IANA name such as Europe/Paris or UTC)" }
}
