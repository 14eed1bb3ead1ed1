/// A 3×3 matrix of `Double`s, stored by rows.
public struct Matrix3: Hashable, Sendable {
    public var row0: Vector3
    public var row1: Vector3
    public var row2: Vector3

    @inlinable
    public init(rows row0: Vector3, _ row1: Vector3, _ row2: Vector3) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// `s` on the diagonal, zero elsewhere.
    @inlinable
    public init(diagonal s: Double) {
        self.init(rows: Vector3(s, 0, 0), Vector3(0, s, 0), Vector3(0, 0, s))
    }

    public static let identity = Matrix3(diagonal: 1)
    public static let zero = Matrix3(diagonal: 0)

    @inlinable
    public var transposed: Matrix3 {
        Matrix3(rows: Vector3(row0.x, row1.x, row2.x), Vector3(row0.y, row1.y, row2.y), Vector3(row0.z, row1.z, row2.z))
    }

    @inlinable
    public static func * (m: Matrix3, v: Vector3) -> Vector3 { Vector3(m.row0.dot(v), m.row1.dot(v), m.row2.dot(v)) }

    @inlinable
    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        return Matrix3(rows: t * a.row0, t * a.row1, t * a.row2)
    }

    @inlinable public static func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.row0 + b.row0, a.row1 + b.row1, a.row2 + b.row2) }
    @inlinable public static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.row0 - b.row0, a.row1 - b.row1, a.row2 - b.row2) }
    @inlinable public static func * (m: Matrix3, s: Double) -> Matrix3 { Matrix3(rows: m.row0 * s, m.row1 * s, m.row2 * s) }

    @inlinable public var diagonal: Vector3 { Vector3(row0.x, row1.y, row2.z) }

    /// The inverse, or `nil` when the determinant is zero or not finite.
    @inlinable
    public var inverse: Matrix3? {
        // The columns of the inverse times the determinant are the cross products of the rows.
        let c0 = row1.cross(row2), c1 = row2.cross(row0), c2 = row0.cross(row1)
        let determinant = row0.dot(c0)
        guard determinant != 0, determinant.isFinite else { return nil }
        return Matrix3(rows: c0, c1, c2).transposed * (1 / determinant)
    }
}
