import Care
import CareStorage
import Foundation
import LinuxSystem

/// `romdev onboard`: records the patient's consent, which opens the rest of the plan.
struct OnboardCommand: CommandAction, Hashable {
    static let consentBy = Option.value(
        "consent-by", valueName: "name", help: "Who agreed to the terms (recorded with the outcome).", isRequired: true)

    static let command = Command(
        name: "onboard", abstract: "Record consent and complete onboarding.",
        discussion: """
            Records today's onboarding event with two values: the consent time (kind
            onboarding.consent.date) and the name given (kind onboarding.consent.by). Until
            then nothing else can be recorded and 'romdev today' shows only onboarding.
            """,
        options: [consentBy] + StoreOptions.options,
        make: { try OnboardCommand($0) })

    static let consentDateKind = "onboarding.consent.date"
    static let consentByKind = "onboarding.consent.by"

    var name: String
    var store: StoreOptions

    init(name: String, store: StoreOptions) {
        self.name = name
        self.store = store
    }

    init(_ values: ParsedValues) throws {
        name = try values.required(Self.consentBy) { text -> String? in
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        store = try StoreOptions(values)
    }

    func run(in context: CommandContext) throws {
        let what = "could not record onboarding"
        let careStore = try store.open(in: context, access: .readWrite)
        try CareDay.requirePlan(careStore, doing: what)
        let calendar = careStore.calendar
        let done = try attempt(what) {
            try careStore.fetchOutcomes(OutcomeQuery(taskIDs: [RecoverCarePlan.TaskID.onboarding]))
        }
        if let first = done.first {
            throw CommandFailure(
                what,
                why: "onboarding is already done (\(LocalTime.iso8601(first.outcome.createdDate, calendar: calendar)))")
        }
        let now = context.now()
        let day = calendar.dayInterval(containing: now)
        let event = try CareDay.firstEvent(of: RecoverCarePlan.TaskID.onboarding, on: day, in: careStore, doing: what)
        let values = [
            OutcomeValue(.date(now), kind: Self.consentDateKind, createdDate: now),
            OutcomeValue(.text(name), kind: Self.consentByKind, createdDate: now),
        ]
        try attempt(what) {
            try careStore.addOutcome(
                NewOutcome(taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence, values: values),
                now: now)
        }
        context.output.line(
            "Onboarding done on \(LocalTime.day(now, calendar: calendar)); consent by \(TerminalText.inline(name)).")
        context.output.line("Next: romdev checkin --pain N --sleep H")
    }
}
