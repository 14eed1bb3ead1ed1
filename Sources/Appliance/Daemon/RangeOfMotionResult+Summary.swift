import CareStorage
import Fusion

extension RangeOfMotionResult {
    /// `range 72.4° (start 1.2°, finish 2.0°, minimum 0.8°, maximum 73.2°); knee 16.8–89.2°`.
    public var summary: String {
        "range \(Self.degrees(range)) (start \(Self.degrees(start)), finish \(Self.degrees(finish)), "
            + "minimum \(Self.degrees(minimum)), maximum \(Self.degrees(maximum))); "
            + "knee \(Self.degrees(kneeExtension).dropLast())–\(Self.degrees(kneeFlexion))"
    }
}
