import Sensor
import Testing

@testable import Fusion

/// The clinical knee angles and the two protocols, on synthetic samples.
struct KneeAngleTests {
    private let mounting = Vector3(0.3, -1.2, 0.5)

    private func imu(_ motion: KneeMotion, mounting: Vector3 = .zero) -> SyntheticIMU {
        var imu = SyntheticIMU(motion: motion, mounting: mounting, gyroNoise: 0.05, accelerationNoise: 0.003, seed: 3)
        imu.sampleRate = 200
        return imu
    }

    /// Still, extend to `peak`, hold, return, still (the rest detector needs about 3 s after a
    /// movement), flex to `flexion`, hold, return, still.
    private func arc(start: Double = 0, peak: Double, flexion: Double) -> KneeMotion {
        let back = start
        return KneeMotion(keyframes: [
            (2.5, start), (4, peak), (5, peak), (6.5, back), (11.5, back), (13, flexion), (14, flexion),
            (15.5, back), (20, back),
        ])
    }

    private func session(_ motion: KneeMotion, _ measurementProtocol: MeasurementProtocol, calibrated: Bool = true)
        -> (session: MeasurementSession, phases: [MeasurementSession.Phase])
    {
        let imu = imu(motion, mounting: mounting)
        var session = MeasurementSession(
            parameters: SessionParameters(measurementProtocol: measurementProtocol),
            calibration: calibrated ? Calibration(mounting: imu.trueMounting) : nil)
        var phases: [MeasurementSession.Phase] = []
        for sample in imu.samples() where !session.isFinished {
            let phase = session.update(sample)
            if phases.last != phase { phases.append(phase) }
        }
        session.stop()
        return (session, phases)
    }

    @Test func seatedKneeFlexionIsNinetyMinusTheShankInclinationPlusTheThighPitch() {
        #expect(KneeAngle.flexion(shankInclination: 0) == 90)
        #expect(KneeAngle.flexion(shankInclination: 90) == 0)
        // Hyperextension is negative, the foot under the chair past 90°: nothing is clamped.
        #expect(KneeAngle.flexion(shankInclination: 95) == -5)
        #expect(KneeAngle.flexion(shankInclination: -40) == 130)
        // A thigh raised by 10° turns the shank by as much without bending the knee.
        #expect(KneeAngle.flexion(shankInclination: 10, thighPitch: 10) == 90)
    }

    @Test func theExtensionProtocolEndsAtTheFirstReturnAndReportsAHyperextensionAsNegative() throws {
        let (session, phases) = session(arc(peak: 95, flexion: -35), .extension)
        #expect(session.phase == .finished(.returned))
        #expect(!phases.contains(.readyToFlex))
        let result = try #require(session.result())
        #expect(result.measurementProtocol == .extension)
        #expect(abs(result.kneeExtension + 5) < 1)
        // The foot never went under the chair before the end: the most flexed is the hanging shin.
        #expect(abs(result.kneeFlexion - 90) < 1)
        #expect(abs(result.kneeArc - result.range) < 1e-9)
        #expect(result.flags.isEmpty)
    }

    @Test func theArcProtocolFollowsBothStepsAndKeepsFlexionPastNinety() throws {
        let (session, phases) = session(arc(peak: 80, flexion: -35), .arc)
        #expect(
            phases == [
                .settling, .ready, .moving, .returning, .readyToFlex, .flexing, .returning, .finished(.returned),
            ])
        let result = try #require(session.result())
        #expect(result.measurementProtocol == .arc)
        #expect(abs(result.kneeExtension - 10) < 1)
        #expect(abs(result.kneeFlexion - 125) < 1)
        #expect(abs(result.kneeArc - 115) < 1.5)
        #expect(abs(result.minimum + 35) < 1)
        #expect(result.flags.isEmpty)
    }

    @Test func withoutAMountingTheStartIsTakenAsAHangingShinAndTheFirstStepAsExtension() throws {
        // The flexion's excursion (50°) is larger than the extension's (40°): the sign still comes
        // from the first step, which the patient was asked to make an extension.
        let (session, _) = session(arc(peak: 40, flexion: -50), .arc, calibrated: false)
        let result = try #require(session.result())
        #expect(abs(result.start) < 1e-9)
        #expect(abs(result.maximum - 40) < 1)
        #expect(abs(result.kneeExtension - 50) < 1)
        #expect(abs(result.kneeFlexion - 140) < 1)
    }

    @Test func aFlexionStepSmallerThanTheReturnToleranceStillReturns() throws {
        // The foot slides back by only 12° (under the 15° return tolerance), early after surgery.
        let (session, phases) = session(arc(peak: 70, flexion: -12), .arc)
        #expect(phases.suffix(3) == [.flexing, .returning, .finished(.returned)])
        let result = try #require(session.result())
        #expect(abs(result.kneeFlexion - 102) < 1)
        #expect(result.flags.isEmpty)
    }

    @Test func anArcEndedBeforeTheFlexionIsFlaggedNoFlexion() throws {
        // Extension and return, then the leg stays still until the stop.
        let motion = KneeMotion(keyframes: [(2.5, 0), (4, 80), (5, 80), (6.5, 0), (12, 0)])
        let (session, phases) = session(motion, .arc)
        #expect(phases.last == .readyToFlex)
        #expect(session.phase == .finished(.stopped))
        let result = try #require(session.result())
        #expect(result.flags == [.noFlexion])
        #expect(abs(result.kneeFlexion - 90) < 1)
    }

    @Test func restsThatDisagreeAreFlaggedNotSeated() throws {
        // The foot comes back 10° forward of where it started.
        let (moved, _) = session(KneeMotion(keyframes: [(2.5, 0), (4, 80), (5, 80), (6.5, 10), (10, 10)]), .extension)
        #expect(try #require(moved.result()).flags == [.notSeated])
        // In the arc, the rest between the steps counts too.
        var shifted = arc(peak: 80, flexion: -35)
        shifted.keyframes[3].angle = 9
        shifted.keyframes[4].angle = 9
        let (between, _) = session(shifted, .arc)
        #expect(try #require(between.result()).flags.contains(.notSeated))
        // Back to within a few degrees is a still thigh and a foot put back.
        let (back, _) = session(KneeMotion(keyframes: [(2.5, 0), (4, 80), (5, 80), (6.5, 3), (10, 3)]), .extension)
        #expect(try #require(back.result()).flags.isEmpty)
    }

    @Test func aSessionStoppedWithTheLegStillButShortOfTheStartIsFlaggedNotSeated() throws {
        // The foot is held still 10° forward for 2 s, less than the rest detector needs after a
        // movement, when the patient presses the button (or the recording ends).
        let (moved, _) = session(KneeMotion(keyframes: [(2.5, 0), (4, 80), (5, 80), (6.5, 10), (8.5, 10)]), .extension)
        #expect(moved.phase == .finished(.stopped))
        #expect(try #require(moved.result()).flags == [.notSeated])
        let (back, _) = session(KneeMotion(keyframes: [(2.5, 0), (4, 80), (5, 80), (6.5, 3), (8.5, 3)]), .extension)
        #expect(back.phase == .finished(.stopped))
        #expect(try #require(back.result()).flags.isEmpty)
        // Stopped while still moving back, the leg's last angle is no rest.
        let (moving, _) = session(KneeMotion(keyframes: [(2.5, 0), (4, 80), (5, 80), (7, 10), (7.1, 10)]), .extension)
        #expect(moving.phase == .finished(.stopped))
        #expect(try #require(moving.result()).flags.isEmpty)
    }

    @Test func aKnownStartFarFromAHangingShinIsFlaggedNotSeated() throws {
        let (session, _) = session(.kneeExtension(start: 30, peak: 95), .extension)
        let result = try #require(session.result())
        #expect(result.flags == [.notSeated])
        #expect(abs(result.kneeExtension + 5) < 1)
    }
}
