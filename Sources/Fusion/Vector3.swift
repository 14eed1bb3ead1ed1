#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 3-vector of `Double`s in a right-handed frame.
///
/// The unit is whatever the caller's context says (g, degrees per second, radians); the
/// property names of the types that hold a `Vector3` carry it.
public struct Vector3: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)
    public static let unitX = Vector3(1, 0, 0)
    public static let unitY = Vector3(0, 1, 0)
    public static let unitZ = Vector3(0, 0, 1)

    /// The Euclidean length.
    @inlinable
    public var length: Double { lengthSquared.squareRoot() }

    /// The squared Euclidean length (cheaper than ``length`` for comparisons).
    @inlinable
    public var lengthSquared: Double { x * x + y * y + z * z }

    /// The vector scaled to length 1, or `nil` when its length is 0 or not finite.
    @inlinable
    public var normalized: Vector3? {
        let length = self.length
        guard length > 0, length.isFinite else { return nil }
        return self * (1 / length)
    }

    @inlinable
    public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    @inlinable
    public func cross(_ other: Vector3) -> Vector3 {
        Vector3(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }

    /// The component of `self` perpendicular to the unit vector `axis`.
    @inlinable
    public func rejecting(_ axis: Vector3) -> Vector3 { self - axis * dot(axis) }

    /// The angle between `self` and `other`, in radians in [0, π].
    ///
    /// Uses `atan2(|a × b|, a · b)`, which stays accurate near 0 and π where `acos` does not.
    @inlinable
    public func angle(to other: Vector3) -> Double { atan2(cross(other).length, dot(other)) }

    /// `self` rotated by the rotation vector `rotation` (axis times angle, radians), Rodrigues' formula.
    @inlinable
    public func rotated(by rotation: Vector3) -> Vector3 {
        // v cos φ + (r × v) sin φ / φ + r (r · v)(1 − cos φ) / φ², with r = axis × φ. The per-sample
        // turns of a gyro are small, where the Taylor series (in φ², so no square root) is exact to
        // rounding and several times cheaper than sin and cos.
        let angleSquared = rotation.dot(rotation)
        let cosine, sineOverAngle, versineOverAngleSquared: Double
        if angleSquared < 0.01 {
            let a2 = angleSquared, a4 = a2 * a2, a6 = a4 * a2
            cosine = 1 - a2 / 2 + a4 / 24 - a6 / 720 + a4 * a4 / 40320
            sineOverAngle = 1 - a2 / 6 + a4 / 120 - a6 / 5040 + a4 * a4 / 362_880
            versineOverAngleSquared = 0.5 - a2 / 24 + a4 / 720 - a6 / 40320 + a4 * a4 / 3_628_800
        } else {
            let angle = angleSquared.squareRoot()
            cosine = cos(angle)
            sineOverAngle = sin(angle) / angle
            versineOverAngleSquared = (1 - cosine) / angleSquared
        }
        return self * cosine + rotation.cross(self) * sineOverAngle
            + rotation * (rotation.dot(self) * versineOverAngleSquared)
    }

    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func * (s: Double, a: Vector3) -> Vector3 { a * s }
    @inlinable public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }
    @inlinable public static func += (a: inout Vector3, b: Vector3) { a = a + b }
    @inlinable public static func -= (a: inout Vector3, b: Vector3) { a = a - b }

    /// Component-wise product.
    @inlinable
    public func scaled(by factors: Vector3) -> Vector3 { Vector3(x * factors.x, y * factors.y, z * factors.z) }

    /// Component-wise quotient.
    @inlinable
    public func divided(by divisors: Vector3) -> Vector3 { Vector3(x / divisors.x, y / divisors.y, z / divisors.z) }

    /// The component for axis 0 (x), 1 (y) or 2 (z).
    public subscript(axis: Int) -> Double {
        get { axis == 0 ? x : (axis == 1 ? y : z) }
        set {
            switch axis {
            case 0: x = newValue
            case 1: y = newValue
            default: z = newValue
            }
        }
    }

    /// The largest absolute component.
    @inlinable
    public var maximumMagnitude: Double { max(abs(x), abs(y), abs(z)) }
}

extension Vector3: CustomStringConvertible {
    public var description: String { "(\(x), \(y), \(z))" }
}
