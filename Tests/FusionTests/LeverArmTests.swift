import Testing

@testable import Fusion

#if canImport(Glibc)
import Glibc
#endif

struct LeverArmTests {
    private let mounting = Mounting(shinAxis: Vector3(0.2, 0.1, 1), hingeAxis: Vector3(0, 1, -0.1))!
    /// 15 cm down the shin and 4 cm forward of the knee's axis.
    private let shin = -0.15, forward = 0.04

    /// The accelerometer of a sensor on a shank turning about the knee, from its position in the
    /// sagittal plane differentiated twice in time: up and horizontal in the world are, in the
    /// sensor's frame, up(θ) = cos θ · shin + sin θ · forward and its perpendicular.
    private func reading(angle: Double, rate: Double, angularAcceleration: Double) -> (up: Vector3, reading: Vector3) {
        func basis(_ theta: Double) -> (up: Vector3, across: Vector3) {
            (
                mounting.shinAxis * cos(theta) + mounting.forwardAxis * sin(theta),
                mounting.forwardAxis * cos(theta) - mounting.shinAxis * sin(theta)
            )
        }
        func world(_ t: Double) -> (up: Double, across: Double) {
            let theta = angle * Double.pi / 180 + rate * t + angularAcceleration * t * t / 2
            let position = mounting.shinAxis * shin + mounting.forwardAxis * forward
            let (up, across) = basis(theta)
            return (position.dot(up), position.dot(across))
        }
        let h = 1e-4
        let (before, now, after) = (world(-h), world(0), world(h))
        let accelerationUp = (before.up - 2 * now.up + after.up) / (h * h)
        let accelerationAcross = (before.across - 2 * now.across + after.across) / (h * h)
        let (up, across) = basis(angle * Double.pi / 180)
        let force =
            up * (1 + accelerationUp / LeverArm.standardGravity) + across
            * (accelerationAcross / LeverArm.standardGravity)
        return (up, force)
    }

    @Test(arguments: [(-20.0, 4.0, 20.0), (45, -3, -25), (80, 1, 30), (10, 0, -15)])
    func theAccelerationIsTheSensorsPositionDifferentiatedTwice(
        angle: Double, rate: Double, angularAcceleration: Double
    ) {
        let (up, reading) = reading(angle: angle, rate: rate, angularAcceleration: angularAcceleration)
        let modelled = LeverArm.acceleration(
            shin: shin, forward: forward, rate: rate, angularAcceleration: angularAcceleration, mounting: mounting)
        #expect((reading - up).length > 0.05, "a brisk turn: \((reading - up).length) g")
        #expect((reading - up - modelled).length < 1e-5, "differentiated \(reading - up), modelled \(modelled)")
    }

    /// Near the true gravity, the lean of the angle is linear in the position: a gentle turn leans it
    /// by a few tenths of a degree, and the coefficients give that to second order.
    @Test(arguments: [(-20.0, 0.3, 2.5), (45, -0.4, -3), (80, 0.1, 4), (10, 0, -1.5)])
    func theLeanIsLinearInThePositionNearTheTrueGravity(
        angle: Double, rate: Double, angularAcceleration: Double
    ) throws {
        let (up, reading) = reading(angle: angle, rate: rate, angularAcceleration: angularAcceleration)
        let lean = try #require(
            LeverArm.lean(at: up, rate: rate, angularAcceleration: angularAcceleration, mounting: mounting))
        let leaned = mounting.sagittalAngle(gravity: reading) - angle
        let predicted = lean.shin * shin + lean.forward * forward
        #expect(abs(leaned) > 0.1, "the case leans: \(leaned)°")
        #expect(abs(leaned - predicted) < 0.05 * abs(leaned) + 0.005, "leaned \(leaned)°, predicted \(predicted)°")
        #expect(lean.variance >= LeverArm.angleSigma * LeverArm.angleSigma)
    }

    @Test func aLegInFreeFallHasNoLean() {
        #expect(LeverArm.lean(at: Vector3(0, 0.1, 0.2), rate: 1, angularAcceleration: 0, mounting: mounting) == nil)
    }
}
