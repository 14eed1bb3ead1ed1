import Foundation
import Testing

@testable import Sensor

@Suite struct MotionModelTests {
    @Test func kneeExtensionProfile() {
        let motion = KneeExtension(restDegrees: 5, peakDegrees: 65, peakSpeedDegreesPerSecond: 60, holdSeconds: 2)
        // 60° at 60 °/s peak: 1.875 s each way.
        #expect(abs(motion.durationSeconds - (2 + 1.875 + 2 + 1.875 + 2)) < 1e-12)
        #expect(motion.inclination(atSeconds: 0).angle == 5)
        #expect(abs(motion.inclination(atSeconds: 2 + 1.875 / 2).rate - 60) < 1e-9)
        #expect(motion.inclination(atSeconds: 4.5).angle == 65)
        #expect(motion.inclination(atSeconds: 100).angle == 5)
        // Continuous, and never faster than the peak speed.
        let dt = motion.durationSeconds / 1000
        var previous = motion.inclination(atSeconds: 0).angle
        for step in 1...1000 {
            let angle = motion.inclination(atSeconds: Double(step) * dt).angle
            #expect(abs(angle - previous) <= 60 * dt * 1.0001)
            previous = angle
        }
    }

    @Test func repetitionsAddUp() {
        let motion = KneeExtension(repetitions: 3)
        let peaks = stride(from: 0.0, to: motion.durationSeconds, by: 0.01)
            .map { motion.inclination(atSeconds: $0).angle }
        var crossings = 0
        for (a, b) in zip(peaks, peaks.dropFirst()) where a < 69.9 && b >= 69.9 { crossings += 1 }
        #expect(crossings == 3)
    }

    /// A thigh that sways and drifts, read by a board on the thigh and one on the shank.
    static let swayingLeg = MotionModel(
        movement: .kneeExtension(KneeExtension(peakDegrees: 60)),
        thighMovement: ThighMovement(amplitudeDegrees: 3, periodSeconds: 4, driftDegrees: 6, driftSeconds: 5))

    @Test func theThighBoardIntegratesToTheThighsPitch() {
        let thigh = Self.swayingLeg.onThigh()
        let dt = 0.001
        var pitch = thigh.state(atSeconds: 0).inclinationDegrees
        for step in 0..<Int(thigh.durationSeconds / dt) {
            let t = Double(step) * dt
            pitch -=
                (thigh.state(atSeconds: t).angularRateDPS.y + thigh.state(atSeconds: t + dt).angularRateDPS.y) / 2 * dt
        }
        let end = thigh.state(atSeconds: Double(Int(thigh.durationSeconds / dt)) * dt).inclinationDegrees
        #expect(abs(pitch - end) < 1e-6)
    }

    @Test func aStillThighBoardReadsGravityTiltedByThePitch() {
        // After the drift, with no sway: the thigh rests 6° up.
        var leg = Self.swayingLeg
        leg.thighMovement.amplitudeDegrees = 0
        let state = leg.onThigh().state(atSeconds: 20)
        let radians = Double.pi / 180
        #expect(abs(state.inclinationDegrees - 6) < 1e-12)
        #expect(state.angularRateDPS == .zero)
        #expect(abs(state.specificForceG.x - sin(6 * radians)) < 1e-12)
        #expect(abs(state.specificForceG.y) < 1e-12)
        #expect(abs(state.specificForceG.z - cos(6 * radians)) < 1e-12)
    }

    @Test func bothBoardsTurnAlikeWithTheThigh() {
        // What the shank's gyro sees beyond the knee's own motion is the thigh's rate.
        let leg = Self.swayingLeg, thigh = Self.swayingLeg.onThigh()
        var still = leg
        still.thighMovement = .none
        for t in stride(from: 0.0, to: leg.durationSeconds, by: 0.37) {
            let relative = leg.state(atSeconds: t).angularRateDPS - still.state(atSeconds: t).angularRateDPS
            #expect(abs(relative.y - thigh.state(atSeconds: t).angularRateDPS.y) < 1e-9)
        }
    }

    @Test func integratedRateEqualsTheAngleChange() {
        let model = MotionModel(movement: .kneeExtension(KneeExtension(peakDegrees: 90)))
        let dt = 0.001
        var angle = model.state(atSeconds: 0).inclinationDegrees
        for step in 0..<Int(model.durationSeconds / dt) {
            let t = Double(step) * dt
            // The rate about the board's y axis is the negative inclination rate.
            angle -=
                (model.state(atSeconds: t).angularRateDPS.y + model.state(atSeconds: t + dt).angularRateDPS.y) / 2 * dt
            #expect(abs(angle - model.state(atSeconds: t + dt).inclinationDegrees) < 0.01)
        }
    }

    @Test(arguments: [0.0, 30, 60, 90])
    func gravityTiltsWithTheShank(inclination: Double) {
        let state = MotionModel(movement: .still(inclinationDegrees: inclination)).state(atSeconds: 3)
        let f = state.specificForceG
        #expect(abs((f * f).sum() - 1) < 1e-12)
        #expect(abs(atan2(f.x, f.z) * 180 / .pi - inclination) < 1e-9)
    }

    @Test func mountingRotatesTheReadings() {
        let mounting = Rotation(rollDegrees: 20, pitchDegrees: -35, yawDegrees: 110)
        let plain = MotionModel(movement: .kneeExtension(KneeExtension()))
        var mounted = plain
        mounted.mounting = mounting
        for t in stride(from: 0.0, to: plain.durationSeconds, by: 0.37) {
            let a = plain.state(atSeconds: t)
            let b = mounted.state(atSeconds: t)
            #expect(b.inclinationDegrees == a.inclinationDegrees)
            let back = mounting * b.specificForceG
            #expect(abs(back - a.specificForceG).max() < 1e-12)
            #expect(abs(mounting * b.angularRateDPS - a.angularRateDPS).max() < 1e-9)
        }
    }

    @Test func thighPitchTurnsTheShankWithItAndTheTruthIncludesIt() {
        var model = MotionModel(movement: .still(inclinationDegrees: 10))
        model.thighMovement = ThighMovement(amplitudeDegrees: 3, periodSeconds: 8)
        var largest = 0.0
        for t in stride(from: 0.0, to: 8, by: 0.05) {
            let state = model.state(atSeconds: t)
            let phi = 3 * sin(2 * Double.pi * t / 8)
            #expect(abs(state.inclinationDegrees - (10 + phi)) < 1e-9)
            // The shank turns at the thigh's rate, about its y axis (negative toward extension).
            let rate = 3 * 2 * Double.pi / 8 * cos(2 * Double.pi * t / 8)
            #expect(abs(state.angularRateDPS - SIMD3(0, -rate, 0)).max() < 1e-9)
            // The board reads gravity turned by the new inclination, plus the knee's small acceleration.
            let theta = state.inclinationDegrees * Double.pi / 180
            let gravity = SIMD3(sin(theta), 0, cos(theta))
            #expect(abs(state.specificForceG - gravity).max() < 0.01)
            largest = max(largest, abs(state.inclinationDegrees - 10))
        }
        #expect(largest > 2.9)
    }

    @Test func aThighDriftCarriesTheShankSmoothlyToANewPitch() {
        var model = MotionModel(movement: .still(inclinationDegrees: 10))
        model.thighMovement = ThighMovement(amplitudeDegrees: 0, periodSeconds: 0, driftDegrees: -2, driftSeconds: 10)
        #expect(model.state(atSeconds: 0).inclinationDegrees == 10)
        #expect(abs(model.state(atSeconds: 5).inclinationDegrees - 9) < 1e-9)
        #expect(model.state(atSeconds: 12).inclinationDegrees == 8)
        #expect(model.state(atSeconds: 12).angularRateDPS == .zero)
        // At its fastest, mid-way: 1.875 × 2° / 10 s, slow enough to pass for rest.
        #expect(abs(model.state(atSeconds: 5).angularRateDPS.y - 0.375) < 1e-9)
    }

    @Test func theSmallThighSwayStaysWithinTheRestThresholds() {
        var model = MotionModel(movement: .still(inclinationDegrees: 10))
        model.thighMovement = .small
        for t in stride(from: 0.0, to: 8, by: 0.1) {
            let state = model.state(atSeconds: t)
            #expect(abs(state.inclinationDegrees - 10) <= 0.3 + 1e-12)
            #expect(abs(state.angularRateDPS).max() < 0.25)
        }
    }

    @Test func rotationBasics() {
        let r = Rotation(axis: [0, 0, 1], angleDegrees: 90)
        #expect(abs(r * SIMD3(1, 0, 0) - SIMD3(0, 1, 0)).max() < 1e-12)
        let m = Rotation(rollDegrees: 10, pitchDegrees: 20, yawDegrees: 30)
        let identity = m * m.transposed
        #expect(abs(identity.x - Rotation.identity.x).max() < 1e-12)
        #expect(abs(identity.z - Rotation.identity.z).max() < 1e-12)
    }
}

private func abs(_ v: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(Swift.abs(v.x), Swift.abs(v.y), Swift.abs(v.z))
}

/// The calibration's knee swings: a hinge between two segments, out of the sagittal plane.
struct KneeSwingsTests {
    /// The shank's rate is the thigh's plus a turn about the knee's axis only: seen in the
    /// segments' frames, they differ along y alone, and the thigh turns about other axes too.
    @Test func theSegmentsRatesDifferOnlyAboutTheKnee() {
        let shankMounting = Rotation(rollDegrees: 20, pitchDegrees: -10, yawDegrees: 35)
        let thighMounting = Rotation(rollDegrees: -5, pitchDegrees: 15, yawDegrees: 100)
        let shank = MotionModel(movement: .kneeSwings(.seated(seed: 4)), mounting: shankMounting)
        let thigh = shank.onThigh(mounting: thighMounting)
        var largestAcross = 0.0, thighAcross = 0.0
        for t in stride(from: 0.0, to: shank.durationSeconds, by: 0.01) {
            // Back into segment axes; the segments coincide at every knee angle about y only.
            let shankRate = shankMounting * shank.state(atSeconds: t).angularRateDPS
            let thighRate = thighMounting * thigh.state(atSeconds: t).angularRateDPS
            let across = SIMD2(shankRate.x, shankRate.z), thighPart = SIMD2(thighRate.x, thighRate.z)
            let shankAcross = (across * across).sum().squareRoot()
            let thighLength = (thighPart * thighPart).sum().squareRoot()
            largestAcross = max(largestAcross, abs(shankAcross - thighLength))
            thighAcross = max(thighAcross, thighLength)
        }
        #expect(largestAcross < 1e-5)
        #expect(thighAcross > 10)
    }

    /// Seated still before and after the swings: gravity alone, up the hanging shin.
    @Test func restsBeforeAndAfterTheSwings() {
        let shank = MotionModel(movement: .kneeSwings(.seated(seed: 4)))
        for t in [0.5, shank.durationSeconds - 0.5] {
            let state = shank.state(atSeconds: t)
            #expect(abs(state.specificForceG.z - 1) < 1e-6 && abs(state.specificForceG.x) < 1e-6)
            #expect((state.angularRateDPS * state.angularRateDPS).sum() < 1e-12)
        }
    }
}

/// The simulated person asked to make tips again.
@Suite struct CalibrationRetakeMotionTests {
    /// The board's axis that points up after the table part.
    static func upAxis(_ motion: CalibrationMotion) -> SIMD3<Double> {
        let last = motion.tableOrientations[motion.tableOrientations.count - 1]
        return last.transposed * SIMD3(0, 0, 1)
    }

    @Test func theFacesAskedForAgainAreTurnedUpAfterTheSeventh() throws {
        let plain = CalibrationMotion.guided(seed: 5)
        let again = CalibrationMotion.guided(seed: 5, retakes: [[1, 0, 0], [0, -1, 0], [0, 1, 0]])
        // The procedure up to the seventh pose, and the strapped part after, are as without them.
        #expect(Array(again.faceMoves.prefix(6)) == plain.faceMoves)
        #expect(again.leadInSeconds == plain.leadInSeconds && again.strapSeconds == plain.strapSeconds)
        #expect(again.swing == plain.swing)
        #expect(again.faceMoves.count == 9)
        // −z up, then +x and −y (tips of 90°), then +y: the opposite face, turned over by 180°.
        #expect(again.faceMoves.suffix(3).map(\.angleDegrees) == [90, 90, 180])
        #expect(abs(Self.upAxis(again).y - 1) < 1e-9)
        var orientation = again.tableOrientations[7]
        #expect(abs((orientation.transposed * SIMD3(0, 0, 1)).x - 1) < 1e-9)
        orientation = again.tableOrientations[8]
        #expect(abs((orientation.transposed * SIMD3(0, 0, 1)).y + 1) < 1e-9)
        #expect(again.durationSeconds > plain.durationSeconds)
    }
}
