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
            // Constant reciprocals: a floating-point division by a constant stays a division.
            let a2 = angleSquared, a4 = a2 * a2
            let c4: Double = 1.0 / 384, c6: Double = 1.0 / 46080
            let s2: Double = 1.0 / 48, s4: Double = 1.0 / 3840, s6: Double = 1.0 / 645_120
            cosine = 1 - a2 * 0.125 + a4 * c4 - a4 * a2 * c6
            sineOverAngle = 0.5 - a2 * s2 + a4 * s4 - a4 * a2 * s6
        } else {
            let angle = angleSquared.squareRoot()
            cosine = cos(angle / 2)
            sineOverAngle = sin(angle / 2) / angle
        }
        self.init(
            w: cosine, x: rotation.x * sineOverAngle, y: rotation.y * sineOverAngle, z: rotation.z * sineOverAngle)
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

    /// Brought back toward unit length by one Newton step, without a square root or a division:
    /// enough for a product of unit quaternions, whose length drifts only by rounding.
    @inlinable
    public var renormalized: Quaternion {
        let factor = (3 - (w * w + x * x + y * y + z * z)) * 0.5
        return Quaternion(w: w * factor, x: x * factor, y: y * factor, z: z * factor)
    }

    /// Scaled back to unit length: repeated products drift from it by rounding.
    @inlinable
    public var normalized: Quaternion {
        let lengthSquared = w * w + x * x + y * y + z * z
        guard lengthSquared > 0 else { return .identity }
        let inverse = 1 / lengthSquared.squareRoot()
        return Quaternion(w: w * inverse, x: x * inverse, y: y * inverse, z: z * inverse)
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

    /// `v` rotated by the inverse rotation: `q* v q`.
    @inlinable
    public func inverseRotate(_ v: Vector3) -> Vector3 {
        let u = Vector3(x, y, z)
        let t = u.cross(v) * 2
        return v - t * w + u.cross(t)
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

    /// The shortest rotation that turns the direction of `v` (any length) onto +z, or `nil` when `v`
    /// is zero or not finite.
    ///
    /// Its axis is horizontal (`v × z`), so applied to an orientation it changes the inclination and
    /// leaves the heading alone.
    @inlinable
    public static func levelling(_ v: Vector3) -> Quaternion? {
        // (|v| + v.z, v.y, −v.x, 0) is that rotation scaled by √(2|v|(|v| + v.z)): one square root for
        // the length and one for the scale, where normalising v first would take two divisions more.
        let length = v.length
        guard length > 0, length.isFinite else { return nil }
        let w = length + v.z
        // Upside down the axis is undefined; any horizontal axis turns v onto +z.
        guard w > 1e-12 * length else { return Quaternion(w: 0, x: 1, y: 0, z: 0) }
        let scale = 1 / (2 * length * w).squareRoot()
        return Quaternion(w: w * scale, x: v.y * scale, y: -v.x * scale, z: 0)
    }
}
