import Sensor
import Testing

@testable import Fusion

struct Vector3Tests {
    @Test func rotatingAQuarterTurnAboutZTurnsXIntoY() {
        let turned = Vector3.unitX.rotated(by: .unitZ * (Double.pi / 2))
        #expect((turned - .unitY).length < 1e-15)
    }

    @Test func rotationKeepsLengthAndAnglesToTheAxis() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<100 {
            let v = rng.gaussianVector(sigma: 3), r = rng.rotation()
            let turned = v.rotated(by: r)
            #expect(abs(turned.length - v.length) < 1e-12)
            #expect(abs(turned.dot(r) - v.dot(r)) < 1e-9)
        }
    }

    @Test func angleIsAccurateNearZeroAndHalfTurn() {
        let tiny = Vector3(1, 1e-9, 0)
        #expect(abs(Vector3.unitX.angle(to: tiny) - 1e-9) < 1e-18)
        #expect(abs(Vector3.unitX.angle(to: -tiny) - (Double.pi - 1e-9)) < 1e-15)
    }

    @Test func zeroVectorHasNoDirection() {
        #expect(Vector3.zero.normalized == nil)
    }
}
