/// Why check-in answers were refused.
public enum CheckInError: Error, Hashable, Sendable {
    /// Pain is not a whole number from 1 to 10.
    case invalidPain(Double)
    /// Sleep is not 0–12 hours in steps of 0.5.
    case invalidSleepHours(Double)
}

extension CheckInError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidPain(let pain):
            "pain must be a whole number from 1 to 10, got \(Self.format(pain))"
        case .invalidSleepHours(let hours):
            "sleep must be hours from 0 to 12 in steps of 0.5, got \(Self.format(hours))"
        }
    }

    /// 11 rather than 11.0; other values as Swift prints them.
    private static func format(_ value: Double) -> String {
        value.isFinite && value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
