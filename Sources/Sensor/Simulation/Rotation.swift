#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A 3-D rotation as a matrix with columns `x`, `y`, `z`: the images of the unit axes. Used for the
/// board's mounting on the shin (board axes → shank axes).
public struct Rotation: Equatable, Sendable {
    /// The image of the x axis (first column).
    public var x: SIMD3<Double>
    /// The image of the y axis (second column).
    public var y: SIMD3<Double>
    /// The image of the z axis (third column).
    public var z: SIMD3<Double>

    public init(x: SIMD3<Double>, y: SIMD3<Double>, z: SIMD3<Double>) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// No rotation: board axes are shank axes.
    public static let identity = Rotation(x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1])

    /// Rotation by `angleDegrees` about `axis` (right-handed; the axis need not be unit length).
    public init(axis: SIMD3<Double>, angleDegrees: Double) {
        let length = (axis * axis).sum().squareRoot()
        guard length > 0 else {
            self = .identity
            return
        }
        let u = axis / length
        let a = angleDegrees * .pi / 180
        let c = cos(a)
        let s = sin(a)
        let t = 1 - c
        x = [t * u.x * u.x + c, t * u.x * u.y + s * u.z, t * u.x * u.z - s * u.y]
        y = [t * u.x * u.y - s * u.z, t * u.y * u.y + c, t * u.y * u.z + s * u.x]
        z = [t * u.x * u.z + s * u.y, t * u.y * u.z - s * u.x, t * u.z * u.z + c]
    }

    /// Z-Y-X (yaw, pitch, roll) angles: first roll about x, then pitch about y, then yaw about z.
    public init(rollDegrees: Double, pitchDegrees: Double, yawDegrees: Double) {
        self =
            Rotation(axis: [0, 0, 1], angleDegrees: yawDegrees)
            * Rotation(axis: [0, 1, 0], angleDegrees: pitchDegrees)
            * Rotation(axis: [1, 0, 0], angleDegrees: rollDegrees)
    }

    /// `R v`.
    public static func * (rotation: Rotation, vector: SIMD3<Double>) -> SIMD3<Double> {
        rotation.x * vector.x + rotation.y * vector.y + rotation.z * vector.z
    }

    /// Composition: `(a * b) v == a (b v)`.
    public static func * (a: Rotation, b: Rotation) -> Rotation {
        Rotation(x: a * b.x, y: a * b.y, z: a * b.z)
    }

    /// The inverse rotation.
    public var transposed: Rotation {
        Rotation(x: [x.x, y.x, z.x], y: [x.y, y.y, z.y], z: [x.z, y.z, z.z])
    }
}
