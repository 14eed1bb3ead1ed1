/// The accumulated outer product Σ ω ωᵀ·dt of angular rates: its principal axis is the dominant
/// rotation axis of a motion, without needing the motion's sign or start.
public struct RotationScatter: Hashable, Sendable {
    // The six distinct entries of the symmetric 3×3 matrix.
    private var xx = 0.0, xy = 0.0, xz = 0.0, yy = 0.0, yz = 0.0, zz = 0.0

    public init() {}

    /// Adds one angular rate (any unit, used consistently) weighted by `interval` seconds.
    public mutating func add(_ rate: Vector3, interval: Double) {
        xx += rate.x * rate.x * interval
        xy += rate.x * rate.y * interval
        xz += rate.x * rate.z * interval
        yy += rate.y * rate.y * interval
        yz += rate.y * rate.z * interval
        zz += rate.z * rate.z * interval
    }

    private func multiply(_ v: Vector3) -> Vector3 {
        Vector3(
            xx * v.x + xy * v.y + xz * v.z,
            xy * v.x + yy * v.y + yz * v.z,
            xz * v.x + yz * v.y + zz * v.z)
    }

    /// The dominant rotation axis among rotations perpendicular to `excluded`, and the fraction of the
    /// rotation energy (in that plane) *not* about it: 0 for a pure hinge motion, 0.5 for rotations
    /// spread evenly over the plane. Returns `nil` when there was no such rotation.
    /// - Parameter excluded: a unit axis whose rotations are ignored (the shin's own long axis).
    public func principalAxis(perpendicularTo excluded: Vector3) -> (axis: Vector3, offAxisFraction: Double)? {
        // Scatter of the projected rates: P S P with P = I − e eᵀ, applied on the fly.
        let project = { (v: Vector3) in v.rejecting(excluded) }
        let basisA = (abs(excluded.x) < 0.9 ? Vector3.unitX : Vector3.unitY).rejecting(excluded).normalized ?? .unitX
        let basisB = excluded.cross(basisA)
        // 2×2 symmetric matrix in the plane, solved in closed form.
        let sa = project(multiply(basisA)), sb = project(multiply(basisB))
        let a = basisA.dot(sa), b = basisA.dot(sb), d = basisB.dot(sb)
        let trace = a + d
        guard trace > 0, trace.isFinite else { return nil }
        let discriminant = (((a - d) * 0.5) * ((a - d) * 0.5) + b * b).squareRoot()
        let largest = trace * 0.5 + discriminant
        // Eigenvector of [[a, b], [b, d]] for `largest`; pick the better-conditioned of two forms.
        let (u, v) = abs(a - largest) > abs(d - largest) ? (b, largest - a) : (largest - d, b)
        guard let axis = (basisA * u + basisB * v).normalized else {
            return (basisA, 0.5)
        }
        return (axis, max(0, 1 - largest / trace))
    }
}
