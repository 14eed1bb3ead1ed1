import Fusion
import Sensor

#if canImport(Glibc)
import Glibc
#endif

/// Test draws on the simulator's seeded generator, so every "random" test case is the same on
/// every run and machine.
extension SplitMix64 {
    /// A standard normal deviate (Box–Muller).
    mutating func gaussian() -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    mutating func gaussianVector(sigma: Double) -> Vector3 {
        Vector3(gaussian() * sigma, gaussian() * sigma, gaussian() * sigma)
    }

    /// A rotation vector (axis × angle, radians) uniformly distributed over rotations.
    mutating func rotation() -> Vector3 {
        // Uniform unit quaternion (Shoemake), converted to axis–angle.
        let u1 = Double.random(in: 0..<1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self) * 2 * Double.pi
        let u3 = Double.random(in: 0..<1, using: &self) * 2 * Double.pi
        let a = (1 - u1).squareRoot(), b = u1.squareRoot()
        let w = a * sin(u2), x = a * cos(u2), y = b * sin(u3), z = b * cos(u3)
        let vector = Vector3(x, y, z)
        let sine = vector.length
        guard sine > 0 else { return .zero }
        let angle = 2 * atan2(sine, w)
        return vector / sine * angle
    }
}
