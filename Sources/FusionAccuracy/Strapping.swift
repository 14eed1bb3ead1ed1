import Sensor

#if canImport(Glibc)
import Glibc
#endif

/// How a trial's boards sit on the leg (board → segment, the same rotation on each segment).
public enum Strapping: Sendable {
    /// At any rotation at all, drawn uniformly: the session must find the mounting by itself.
    case anyRotation
    /// Where the wiring guide puts them (seated with the shin hanging and the thigh level: +X
    /// forward along the segment, +Y to the patient's left, +Z up), turned about a random axis by
    /// as much as hands strap a box on a limb: 10° (1σ), at most 30°. Which axis lies along the
    /// thigh decides which accelerometer offset tilts the thigh's angle, x's (±50 mg) here rather
    /// than z's (±80 mg).
    case asGuided

    /// The standard deviation of the turn off the guide's orientation, degrees.
    static let guidedSpreadDegrees = 10.0

    /// Draws a mounting; both kinds take four normal draws from `random`, so that whatever is
    /// drawn after it is the same either way.
    public func mounting(_ random: inout SplitMix64) -> Rotation {
        let first = random.nextGaussian()
        let axis = SIMD3(random.nextGaussian(), random.nextGaussian(), random.nextGaussian())
        switch self {
        case .anyRotation:
            // A normalised 4-D normal is a uniform unit quaternion (w, axis · sin).
            let sine = (axis * axis).sum().squareRoot()
            return Rotation(axis: axis, angleDegrees: 2 * atan2(sine, first) * 180 / Double.pi)
        case .asGuided:
            let spread = Self.guidedSpreadDegrees
            return Rotation(axis: axis, angleDegrees: min(max(first * spread, -3 * spread), 3 * spread))
        }
    }
}
