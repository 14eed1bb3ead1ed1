#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A unit quaternion `w + xi + yj + zk` representing a rotation.
///
/// An orientation is stored as the rotation from the sensor frame to the reference frame, so that
/// `q.rotate(v)` takes a vector measured by the sensor into the reference frame (Hamilton
/// convention, as in the orientation-estimation literature the filter follows).
public struct Quaternion: Hashable, Sendable {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// The rotation by the rotation vector `rotation` (axis times angle, radians).
    @inlinable
    public init(rotationVector rotation: Vector3) {
        let angleSquared = rotation.lengthSquared
        let cosine, sineOverAngle: Double
        // Half-angle cosine and sin(φ/2)/φ. A gyro turns the sensor by well under 0.1 rad between
        // samples; there the series in φ² is exact to rounding and avoids sin, cos and a square root.
        if angleSquared < 0.01 {
            let a2 = angleSquared, a4 = a2 * a2
            cosine = 1 - a2 / 8 + a4 / 384 - a4 * a2 / 46080
            sineOverAngle = 0.5 - a2 / 48 + a4 / 3840 - a4 * a2 / 645_120
        } else {
            let angle = angleSquared.squareRoot()
            cosine = cos(angle / 2)
            sineOverAngle = sin(angle / 2) / angle
        }
        self.init(w: cosine, x: rotation.x * sineOverAngle, y: rotation.y * sineOverAngle, z: rotation.z * sineOverAngle)
    }

    /// The Hamilton product: the rotation `other` followed by `self`.
    @inlinable
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        let w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z
        let x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y
        let y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x
        let z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w
        return Quaternion(w: w, x: x, y: y, z: z)
    }

    /// The inverse rotation.
    @inlinable
    public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    /// Scaled back to unit length: repeated products drift from it by rounding.
    @inlinable
    public var normalized: Quaternion {
        let length = (w * w + x * x + y * y + z * z).squareRoot()
        guard length > 0 else { return .identity }
        return Quaternion(w: w / length, x: x / length, y: y / length, z: z / length)
    }

    /// `v` rotated by this rotation: `q v q*`.
    @inlinable
    public func rotate(_ v: Vector3) -> Vector3 {
        // v + 2w (u × v) + 2 u × (u × v), with u the vector part: two cross products instead of two
        // quaternion products.
        let u = Vector3(x, y, z)
        let t = u.cross(v) * 2
        return v + t * w + u.cross(t)
    }

    /// The rotation matrix: its rows are the reference frame's axes seen from the sensor frame.
    @inlinable
    public var matrix: Matrix3 {
        let xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z
        let wx = w * x, wy = w * y, wz = w * z
        let row0 = Vector3(1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy))
        let row1 = Vector3(2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx))
        let row2 = Vector3(2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy))
        return Matrix3(rows: row0, row1, row2)
    }

    /// The reference frame's vertical (+z) seen from the sensor frame: the third row of ``matrix``.
    @inlinable
    public var verticalInSensorFrame: Vector3 {
        Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))
    }

    /// The shortest rotation that turns the unit vector `v` onto +z.
    ///
    /// Its axis is horizontal (`v × z`), so applied to an orientation it changes the inclination and
    /// leaves the heading alone.
    @inlinable
    public static func levelling(_ v: Vector3) -> Quaternion {
        let halfCosineSquared = (1 + v.z) / 2
        // Upside down the axis is undefined; any horizontal axis turns v onto +z.
        guard halfCosineSquared > 1e-12 else { return Quaternion(w: 0, x: 1, y: 0, z: 0) }
        let w = halfCosineSquared.squareRoot()
        return Quaternion(w: w, x: v.y / (2 * w), y: -v.x / (2 * w), z: 0)
    }
}
