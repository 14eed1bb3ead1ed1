import Care
import Foundation
import Fusion

extension RangeOfMotionResult {
    /// The outcome values a measurement stores, as `romdev measure` stores them: `range` first
    /// (the value Recover charts), then `start`, `finish`, `minimum`, `maximum`, `knee_extension`,
    /// `knee_flexion`, `knee_arc` in degrees, the limb, the protocol, and one value per quality flag.
    public func outcomeValues(limb: String?, createdDate: Date) -> [OutcomeValue] {
        RecoverCarePlan.rangeOfMotionValues(
            startDegrees: start, finishDegrees: finish, minimumDegrees: minimum, maximumDegrees: maximum,
            knee: RecoverCarePlan.KneeAngles(extensionDegrees: kneeExtension, flexionDegrees: kneeFlexion),
            limb: limb, measurementProtocol: measurementProtocol.rawValue, flags: flags.names, createdDate: createdDate)
    }

    /// Why the result should not be stored, or nil: a session too short to trust, angles a knee
    /// cannot reach (the strap slipped), or a leg that never moved. The patient is asked to measure
    /// again instead; the daemon and `romdev measure` both follow this rule.
    public var rejection: String? {
        if flags.contains(.implausible) { return "implausible angles (minimum \(Self.degrees(minimum)), maximum \(Self.degrees(maximum)))" }
        if flags.contains(.tooShort) { return "the session was too short" }
        if flags.contains(.noMovement) { return "the knee did not move (range \(Self.degrees(range)))" }
        return nil
    }

    static func degrees(_ value: Double) -> String {
        // Rounded first, and + 0 turns −0 into 0: a still leg's −0.003° is "0.0°", not "-0.0°".
        String(format: "%.1f°", (value * 10).rounded() / 10 + 0)
    }

    /// `range 72.4° (start 1.2°, finish 2.0°, minimum 0.8°, maximum 73.2°); knee 16.8–89.2°`.
    public var summary: String {
        "range \(Self.degrees(range)) (start \(Self.degrees(start)), finish \(Self.degrees(finish)), "
            + "minimum \(Self.degrees(minimum)), maximum \(Self.degrees(maximum))); "
            + "knee \(Self.degrees(kneeExtension).dropLast())–\(Self.degrees(kneeFlexion))"
    }
}
