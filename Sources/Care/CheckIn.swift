import Foundation

/// The answers of a daily check-in: pain 1–10 (whole numbers) and hours of sleep 0–12 (in steps
/// of half an hour). Both are required.
public struct CheckIn: Hashable, Sendable {
    /// Pain on a scale of 1 (least) to 10 (worst).
    public let pain: Int
    /// Hours of sleep last night, 0–12, a multiple of 0.5.
    public let sleepHours: Double

    /// Pain scale bounds.
    public static let painRange = 1...10
    /// Sleep bounds, hours.
    public static let sleepHoursRange = 0.0...12.0

    /// Validates the answers as entered.
    ///
    /// - Throws: ``CheckInError`` naming the first invalid answer.
    public init(pain: Double, sleepHours: Double) throws(CheckInError) {
        guard pain.rounded() == pain, pain >= Double(Self.painRange.lowerBound),
            pain <= Double(Self.painRange.upperBound)
        else { throw .invalidPain(pain) }
        guard Self.sleepHoursRange.contains(sleepHours), (sleepHours * 2).rounded() == sleepHours * 2
        else { throw .invalidSleepHours(sleepHours) }
        self.pain = Int(pain)
        self.sleepHours = sleepHours
    }

    /// Reads the answers back from a check-in outcome's values; nil when one is missing or invalid.
    public init?(values: [OutcomeValue]) {
        guard let pain = values.first(where: { $0.kind == RecoverCarePlan.Kind.pain })?.numberValue,
            let sleep = values.first(where: { $0.kind == RecoverCarePlan.Kind.sleep })?.numberValue,
            let checkIn = try? CheckIn(pain: pain, sleepHours: sleep)
        else { return nil }
        self = checkIn
    }

    /// The outcome values, in the order pain (integer, no units) then sleep (double, hours).
    public func outcomeValues(createdDate: Date) -> [OutcomeValue] {
        [
            OutcomeValue(.integer(pain), kind: RecoverCarePlan.Kind.pain, createdDate: createdDate),
            OutcomeValue(
                .double(sleepHours), kind: RecoverCarePlan.Kind.sleep, units: RecoverCarePlan.sleepUnits,
                createdDate: createdDate),
        ]
    }
}
