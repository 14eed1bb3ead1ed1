import Care
import Foundation
import Fusion

extension RangeOfMotionResult {
    /// The outcome values a measurement is stored as: `range` first (the value Recover charts),
    /// then `start`, `finish`, `minimum`, `maximum`, `knee_extension`, `knee_flexion`, `knee_arc`
    /// in degrees as ``reported``, the limb, the protocol, where the knee angles come from, and one
    /// value per quality flag.
    public func outcomeValues(limb: Limb, createdDate: Date) -> [OutcomeValue] {
        let angles = reported
        return RecoverCarePlan.rangeOfMotionValues(
            startDegrees: angles.start, finishDegrees: angles.finish, minimumDegrees: angles.minimum,
            maximumDegrees: angles.maximum,
            knee: RecoverCarePlan.KneeAngles(
                extensionDegrees: angles.kneeExtension, flexionDegrees: angles.kneeFlexion),
            limb: limb.rawValue, measurementProtocol: measurementProtocol.rawValue,
            kneeSource: kneeAngleSource.rawValue, flags: flags.names,
            createdDate: createdDate)
    }

    /// `72.4°`: a tenth of a degree, for people.
    public static func degrees(_ value: Double) -> String {
        // Rounded first, and + 0 turns −0 into 0: a still leg's −0.003° is "0.0°", not "-0.0°".
        String(format: "%.1f°", (value * 10).rounded() / 10 + 0)
    }
}

/// Why a result is not stored: the patient is asked to measure again instead. `romdev measure`
/// and the daemon both meet it through ``CareStore/recordMeasurement(_:on:limb:at:)``.
public enum UnusableResult: Hashable, Sendable, CustomStringConvertible {
    /// Angles a knee cannot reach (the strap slipped).
    case implausible(minimum: Double, maximum: Double)
    /// A session too short to trust.
    case tooShort
    /// The leg never moved.
    case noMovement(range: Double)

    /// Why `result` is unusable, or nil when it may be stored.
    public init?(_ result: RangeOfMotionResult) {
        if result.flags.contains(.implausible) {
            self = .implausible(minimum: result.minimum, maximum: result.maximum)
        } else if result.flags.contains(.tooShort) {
            self = .tooShort
        } else if result.flags.contains(.noMovement) {
            self = .noMovement(range: result.range)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case let .implausible(minimum, maximum):
            "implausible angles (minimum \(RangeOfMotionResult.degrees(minimum)), maximum \(RangeOfMotionResult.degrees(maximum)))"
        case .tooShort: "the session was too short"
        case let .noMovement(range): "the knee did not move (range \(RangeOfMotionResult.degrees(range)))"
        }
    }
}
