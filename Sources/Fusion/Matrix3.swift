/// A 3×3 matrix of `Double`s, stored by rows; the sensor corrections of a ``Calibration``.
///
/// In JSON it is an array of three rows, each an array of three numbers, so that a file reads as
/// the matrix does on paper.
public struct Matrix3: Hashable, Sendable, Codable {
    public var row0: Vector3
    public var row1: Vector3
    public var row2: Vector3

    @inlinable
    public init(rows row0: Vector3, _ row1: Vector3, _ row2: Vector3) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    public static let identity = Matrix3(diagonal: Vector3(1, 1, 1))
    public static let zero = Matrix3(diagonal: .zero)

    /// The matrix with `diagonal` on its diagonal and zeros elsewhere.
    public init(diagonal: Vector3) {
        self.init(rows: Vector3(diagonal.x, 0, 0), Vector3(0, diagonal.y, 0), Vector3(0, 0, diagonal.z))
    }

    /// The element in `row` and `column` (each 0, 1 or 2).
    public subscript(row: Int, column: Int) -> Double {
        get { self[row: row][column] }
        set {
            var changed = self[row: row]
            changed[column] = newValue
            self[row: row] = changed
        }
    }

    /// Row 0, 1 or 2.
    public subscript(row row: Int) -> Vector3 {
        get { row == 0 ? row0 : (row == 1 ? row1 : row2) }
        set {
            switch row {
            case 0: row0 = newValue
            case 1: row1 = newValue
            default: row2 = newValue
            }
        }
    }

    public var diagonal: Vector3 { Vector3(row0.x, row1.y, row2.z) }

    /// The largest magnitude of an element off the diagonal.
    public var largestOffDiagonal: Double {
        max(abs(row0.y), abs(row0.z), abs(row1.x), abs(row1.z), abs(row2.x), abs(row2.y))
    }

    @inlinable
    public var transposed: Matrix3 {
        Matrix3(rows: Vector3(row0.x, row1.x, row2.x), Vector3(row0.y, row1.y, row2.y), Vector3(row0.z, row1.z, row2.z))
    }

    public var isFinite: Bool {
        [row0, row1, row2].allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
    }

    public var determinant: Double { row0.dot(row1.cross(row2)) }

    /// The inverse, or nil when the matrix is singular.
    public var inverse: Matrix3? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        // The columns of the inverse are the cross products of the rows, over the determinant.
        let c0 = row1.cross(row2) / det, c1 = row2.cross(row0) / det, c2 = row0.cross(row1) / det
        return Matrix3(rows: Vector3(c0.x, c1.x, c2.x), Vector3(c0.y, c1.y, c2.y), Vector3(c0.z, c1.z, c2.z))
    }

    @inlinable
    public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.row0.dot(v), m.row1.dot(v), m.row2.dot(v))
    }

    @inlinable
    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        return Matrix3(
            rows: Vector3(a.row0.dot(t.row0), a.row0.dot(t.row1), a.row0.dot(t.row2)),
            Vector3(a.row1.dot(t.row0), a.row1.dot(t.row1), a.row1.dot(t.row2)),
            Vector3(a.row2.dot(t.row0), a.row2.dot(t.row1), a.row2.dot(t.row2)))
    }

    @inlinable
    public static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(rows: a.row0 - b.row0, a.row1 - b.row1, a.row2 - b.row2)
    }

    @inlinable
    public static func + (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(rows: a.row0 + b.row0, a.row1 + b.row1, a.row2 + b.row2)
    }

    @inlinable
    public static func * (m: Matrix3, s: Double) -> Matrix3 { Matrix3(rows: m.row0 * s, m.row1 * s, m.row2 * s) }

    /// The largest magnitude of any element.
    public var maximumMagnitude: Double {
        max(row0.maximumMagnitude, row1.maximumMagnitude, row2.maximumMagnitude)
    }

    public init(from decoder: any Decoder) throws {
        let rows = try decoder.singleValueContainer().decode([[Double]].self)
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not 3×3"))
        }
        self.init(
            rows: Vector3(rows[0][0], rows[0][1], rows[0][2]), Vector3(rows[1][0], rows[1][1], rows[1][2]),
            Vector3(rows[2][0], rows[2][1], rows[2][2]))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode([row0, row1, row2].map { [$0.x, $0.y, $0.z] })
    }
}
