import Care
import Foundation
import SQLite

/// The settings of the seeded care plan.
public struct CarePlanSettings: Hashable, Sendable {
    /// The first instant of the plan's first day, in `timeZone`.
    public var start: Date
    /// The measured limb.
    public var limb: Limb
    /// The patient's time zone.
    public var timeZone: TimeZone
    /// What the range-of-motion task asks for.
    public var rangeOfMotionProtocol: RangeOfMotionProtocol

    public init(start: Date, limb: Limb, timeZone: TimeZone, rangeOfMotionProtocol: RangeOfMotionProtocol = .extension)
    {
        self.start = start
        self.limb = limb
        self.timeZone = timeZone
        self.rangeOfMotionProtocol = rangeOfMotionProtocol
    }
}

/// What seeding the care plan did.
public enum CarePlanSeeding: Hashable, Sendable {
    /// The plan was created with these settings.
    case created(CarePlanSettings)
    /// A plan was already there, with these settings; nothing changed.
    case alreadyPresent(CarePlanSettings)
}

extension CareStore {
    /// Seeds the Recover care plan (onboarding, check-in, range of motion; see
    /// `RecoverCarePlan`) and records its settings, unless a plan is already there.
    ///
    /// Idempotent: a second call changes nothing and reports the plan that exists, whatever
    /// arguments it is given.
    ///
    /// - Parameters:
    ///   - start: Any instant of the plan's first day (in `timeZone`).
    ///   - limb: The measured limb.
    ///   - timeZone: The patient's time zone; becomes the store's.
    ///   - rangeOfMotionProtocol: What the range-of-motion task asks for (its instructions say so).
    ///   - now: The creation instant of the tasks.
    /// - Throws: ``CareStoreError/duplicateTaskID(_:)`` when a plan task id is taken by a task
    ///   added by hand, ``CareStoreError/schedule(_:)``.
    public func seedRecoverPlan(
        start: Date, limb: Limb, timeZone: TimeZone, rangeOfMotionProtocol: RangeOfMotionProtocol = .extension,
        now: Date
    ) throws(CareStoreError) -> CarePlanSeeding {
        let calendar = Self.gregorian(in: timeZone)
        let seeding = try write { db -> CarePlanSeeding in
            if let existing = try Self.planSettings(in: db) { return .alreadyPresent(existing) }
            let tasks = try RecoverCarePlan.tasks(
                start: start, createdDate: now, calendar: calendar, includesFlexion: rangeOfMotionProtocol == .arc)
            for task in tasks {
                if try db.fetchOne("SELECT 1 FROM task WHERE id = ?", [task.id]) != nil {
                    throw CareStoreError.duplicateTaskID(task.id)
                }
                try Self.insert(task, in: db)
            }
            let settings = CarePlanSettings(
                start: calendar.startOfDay(for: start), limb: limb, timeZone: timeZone,
                rangeOfMotionProtocol: rangeOfMotionProtocol)
            try Self.setMetadata(timeZone.identifier, for: .timeZone, in: db)
            try Self.setMetadata(limb.rawValue, for: .limb, in: db)
            try Self.setMetadata(settings.start.formatted(.iso8601), for: .planStart, in: db)
            try Self.setMetadata(rangeOfMotionProtocol.rawValue, for: .rangeOfMotionProtocol, in: db)
            return .created(settings)
        }
        if case .created = seeding { setTimeZone(timeZone) }
        return seeding
    }

    /// The seeded plan's settings, nil before seeding.
    public func carePlanSettings() throws(CareStoreError) -> CarePlanSettings? {
        try read { try Self.planSettings(in: $0) }
    }

    private static func planSettings(in db: Connection) throws -> CarePlanSettings? {
        guard let startText = try metadata(.planStart, in: db) else { return nil }
        guard let start = try? Date(startText, strategy: .iso8601) else {
            throw CareStoreError.invalidMetadata(key: MetadataKey.planStart.rawValue, value: startText)
        }
        let limbText = try metadata(.limb, in: db) ?? ""
        guard let limb = Limb(rawValue: limbText) else {
            throw CareStoreError.invalidMetadata(key: MetadataKey.limb.rawValue, value: limbText)
        }
        let zone = try timeZone(identifier: try metadata(.timeZone, in: db) ?? "")
        let protocolText = try metadata(.rangeOfMotionProtocol, in: db) ?? RangeOfMotionProtocol.extension.rawValue
        guard let rangeOfMotionProtocol = RangeOfMotionProtocol(rawValue: protocolText) else {
            throw CareStoreError.invalidMetadata(key: MetadataKey.rangeOfMotionProtocol.rawValue, value: protocolText)
        }
        return CarePlanSettings(start: start, limb: limb, timeZone: zone, rangeOfMotionProtocol: rangeOfMotionProtocol)
    }

    /// Whether the plan's onboarding is still to do: an `onboarding` task exists and has no live
    /// outcome. While it is, only onboarding may be recorded.
    public func isOnboardingPending() throws(CareStoreError) -> Bool {
        try read { try Self.isOnboardingPending(in: $0) }
    }

    /// Throws ``CareStoreError/onboardingRequired(taskID:)`` when an outcome of `taskID` would be
    /// refused because onboarding is not done: for callers that check before doing something
    /// long (a measurement) that ``addOutcomes(_:now:)`` would then refuse.
    public func checkOnboardingDone(recording taskID: String) throws(CareStoreError) {
        try read { try Self.checkOnboardingDone(recording: taskID, in: $0) }
    }

    /// The plan's rule that onboarding comes first: while an `onboarding` task exists without a
    /// live outcome, no other task may be recorded. The one home of the rule: the daemon and the
    /// command line both record through ``addOutcomes(_:now:)``.
    ///
    /// The onboarding task cannot be deleted (``deleteTasks(ids:now:)``), so consent cannot be
    /// skipped; a store where it was deleted before that rule stays gated, because nothing shows
    /// consent was given. Deleting the onboarding outcome (withdrawing consent) gates again.
    static func checkOnboardingDone(recording taskID: String, in db: Connection) throws {
        guard taskID != RecoverCarePlan.TaskID.onboarding else { return }
        if try isOnboardingPending(in: db) { throw CareStoreError.onboardingRequired(taskID: taskID) }
    }

    private static func isOnboardingPending(in db: Connection) throws -> Bool {
        let onboarding = RecoverCarePlan.TaskID.onboarding
        guard try db.fetchOne("SELECT 1 FROM task WHERE id = ? LIMIT 1", [onboarding]) != nil else { return false }
        return try db.fetchOne(
            """
            SELECT 1 FROM outcome o JOIN task t ON o.task_uuid = t.uuid
            WHERE t.id = ? AND o.deleted_date IS NULL LIMIT 1
            """, [onboarding]) == nil
    }
}
