#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the sensor sits on the shin: two axes in the sensor frame that define the sagittal angle.
///
/// The sagittal angle is the shank's inclination from vertical in the plane perpendicular to the
/// knee's hinge axis, in degrees: 0 with the shin vertical, 90 with it horizontal, positive toward
/// extension (the foot moving forward and up), negative toward flexion beyond vertical.
public struct Mounting: Hashable, Sendable, Codable {
    /// Unit vector along the shin from the ankle toward the knee, sensor frame. With the shin
    /// vertical it equals the gravity direction of ``OrientationFilter`` (which points away from the earth).
    public var shinAxis: Vector3
    /// Unit vector along the knee's flexion/extension axis, perpendicular to ``shinAxis``, oriented
    /// so that extension is a positive rotation of the shank about it.
    public var hingeAxis: Vector3

    /// Creates a mounting from two axes; the hinge is made perpendicular to the shin.
    /// Returns `nil` when either axis is zero or they are parallel.
    public init?(shinAxis: Vector3, hingeAxis: Vector3) {
        guard let shin = shinAxis.normalized else { return nil }
        let perpendicular = hingeAxis.rejecting(shin)
        guard perpendicular.length > 1e-6 * hingeAxis.length, let hinge = perpendicular.normalized
        else { return nil }
        self.shinAxis = shin
        self.hingeAxis = hinge
    }

    /// The axis pointing forward (anterior) when the shin is vertical: shin × hinge.
    public var forwardAxis: Vector3 { shinAxis.cross(hingeAxis) }

    /// The sagittal angle for a gravity direction, in degrees in (−180, 180].
    /// - Parameter gravity: unit gravity direction (pointing away from the earth), sensor frame.
    public func sagittalAngle(gravity: Vector3) -> Double {
        // Seen from the shank, "up" turns opposite to the shank; its components in the sagittal plane
        // are (sin θ, cos θ) along (forward, shin).
        atan2(gravity.dot(forwardAxis), gravity.dot(shinAxis)) * 180 / Double.pi
    }

    /// The same mounting with the hinge reversed: extension and flexion swap signs.
    public var reversed: Mounting {
        var copy = self
        copy.hingeAxis = -hingeAxis
        return copy
    }
}

/// Removes the ±180° wrap from a sequence of angles in degrees, so that a continuous motion gives a
/// continuous result (one turn past 180° reads 181°, not −179°).
public struct AngleUnwrapper: Sendable {
    private var previous: Double?

    public init() {}

    /// `degrees` modulo 360°, in (−180, 180]: the shortest turn with that end.
    static func halfTurn(_ degrees: Double) -> Double {
        let turn = degrees.truncatingRemainder(dividingBy: 360)
        if turn > 180 { return turn - 360 }
        if turn <= -180 { return turn + 360 }
        return turn
    }

    /// The angle closest to the previous unwrapped angle that equals `wrapped` modulo 360°.
    public mutating func unwrap(_ wrapped: Double) -> Double {
        guard let previous else {
            self.previous = wrapped
            return wrapped
        }
        let unwrapped = previous + Self.halfTurn(wrapped - previous)
        self.previous = unwrapped
        return unwrapped
    }
}
