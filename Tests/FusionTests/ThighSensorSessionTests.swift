import Sensor
import Testing

@testable import Fusion

/// Sessions with a thigh sensor: the knee angle from both orientations, whatever the thigh does.
struct ThighSensorSessionTests {
    /// Still, extend to `peak`, hold, return, still, then (arc) flex to `flexion`, hold, return,
    /// still; in the angles of ``SyntheticLeg/knee``.
    static func arc(start: Double = 0, peak: Double, flexion: Double) -> KneeMotion {
        KneeMotion(keyframes: [
            (2.5, start), (4, peak), (5, peak), (6.5, start), (11.5, start), (13, flexion), (14, flexion),
            (15.5, start), (20, start),
        ])
    }

    /// The thigh swaying ±1.5° over 8 s, sliding 4° up during the extension and 1° more by the
    /// end: what the one-sensor session cannot tell from the knee's own motion.
    static let restlessThigh: KneeMotion = {
        var thigh = KneeMotion(keyframes: [(0, 0), (2.5, 0), (5, 4), (20, 5)])
        thigh.sway = (1.5, 8)
        return thigh
    }()

    static let mounting = Vector3(0.3, -1.2, 0.5)

    private func leg(_ knee: KneeMotion, thigh: KneeMotion = restlessThigh, seed: UInt64 = 3) -> SyntheticLeg {
        SyntheticLeg(knee: knee, thigh: thigh, shankMounting: Self.mounting, thighMounting: Self.mounting, seed: seed)
    }

    /// The true knee angles over what the session took.
    private func truth(_ leg: SyntheticLeg, _ session: MeasurementSession) -> (extension: Double, flexion: Double) {
        leg.kneeFlexionExtremes(until: Double(session.sampleCount - 1) / leg.sampleRate)
    }

    @Test(arguments: MeasurementProtocol.allCases, [UInt64(1), 2, 3])
    func aSwayingAndDriftingThighDoesNotEnterTheKneeAngles(measurementProtocol: MeasurementProtocol, seed: UInt64)
        throws
    {
        let leg = leg(Self.arc(peak: 80, flexion: -35), seed: seed)
        let parameters = SessionParameters(measurementProtocol: measurementProtocol)
        let session = measure(
            leg.samples(), parameters: parameters, calibration: Calibration(mounting: leg.trueMounting))
        let result = try #require(session.result())
        let truth = truth(leg, session)
        #expect(session.phase == .finished(.returned))
        #expect(result.kneeAngleSource == .thighSensor)
        #expect(abs(result.kneeExtension - truth.extension) < 0.5, "\(result.kneeExtension) vs \(truth.extension)")
        #expect(abs(result.kneeFlexion - truth.flexion) < 0.5, "\(result.kneeFlexion) vs \(truth.flexion)")
        #expect(abs(result.kneeArc - (truth.flexion - truth.extension)) < 0.5)
        // The knee itself was held still at every rest: nothing to flag.
        #expect(result.flags.isEmpty, "\(result.flags.names)")

        // The shank alone, under the seated assumption, carries the thigh's turn and says so.
        var shankOnly = MeasurementSession(parameters: parameters, calibration: Calibration(mounting: leg.trueMounting))
        for pair in leg.samples() where !shankOnly.isFinished { shankOnly.update(pair.shank) }
        shankOnly.stop()
        let seated = try #require(shankOnly.result())
        #expect(seated.kneeAngleSource == .seatedAssumption)
        #expect(abs(seated.kneeExtension - truth.extension) > 1.5 || abs(seated.kneeFlexion - truth.flexion) > 1.5)
    }

    /// A small flexion step, 15° at the knee, while the thigh rises by 6°: the shank tilts by 9°,
    /// under the 10° that starts a step, and a session following the shank would wait for a
    /// flexion to its end. The steps follow the knee's own turn: for boards strapped alike, with a
    /// calibrated mounting or none, and for boards strapped apart about the identified hinge axes.
    @Test(arguments: ["mounting", "none", "hinge axes"])
    func theStepsFollowTheKneeNotTheShank(calibration kind: String) throws {
        let thigh = KneeMotion(keyframes: [(0, 0), (11.5, 0), (13, 6), (14, 6), (15.5, 0), (20, 0)])
        var leg = leg(Self.arc(peak: 70, flexion: -15), thigh: thigh)
        leg.thighMounting = kind == "hinge axes" ? Vector3(-0.4, 0.9, 0.2) : leg.shankMounting
        let calibration: Calibration? =
            switch kind {
            case "mounting": Calibration(mounting: leg.trueMounting)
            case "hinge axes":
                Calibration(mounting: leg.trueMounting, thigh: ThighCalibration(hingeAxes: leg.trueHingeAxes))
            default: nil
            }
        let session = measure(
            leg.samples(), parameters: SessionParameters(measurementProtocol: .arc), calibration: calibration)
        let result = try #require(session.result())
        let truth = truth(leg, session)
        #expect(session.phase == .finished(.returned))
        #expect(result.flags.isEmpty, "\(result.flags.names)")
        #expect(abs(result.kneeFlexion - truth.flexion) < 0.5, "\(result.kneeFlexion) vs \(truth.flexion)")
    }

    /// Most of each return lost to a stalled host (1.25 s): after the gyros' guess of the lost turn
    /// the filters' knee angle pulls back to the accelerometers over seconds, so its error after the
    /// last still phase is not its error at it. The thigh swaying ±3° keeps both sensors from being
    /// still together to the end, and the angle there, taken as the filter's less its error at the
    /// phase, ran 12° and 20° into flexion; the gyros' path from the phase leaves 1.2° and 2.0°.
    @Test(arguments: MeasurementProtocol.allCases)
    func aTurnLostInAReturnDoesNotRunOnAfterTheLastStillPhase(measurementProtocol: MeasurementProtocol) throws {
        var thigh = Self.restlessThigh
        thigh.sway = (3, 6)
        let leg = leg(Self.arc(peak: 80, flexion: -35), thigh: thigh)
        let gaps = [5.05...6.3, 14.05...15.3]
        let samples = leg.samples().filter { pair in !gaps.contains { $0.contains(pair.shank.time) } }
        let session = measure(
            samples, parameters: SessionParameters(measurementProtocol: measurementProtocol),
            calibration: Calibration(mounting: leg.trueMounting))
        let result = try #require(session.result())
        let truth = leg.kneeFlexionExtremes(until: samples[session.sampleCount - 1].shank.time)
        #expect(session.phase == .finished(.returned))
        #expect(result.flags.contains(.samplesLost))
        #expect(abs(result.kneeExtension - truth.extension) < 0.5, "\(result.kneeExtension) vs \(truth.extension)")
        #expect(abs(result.kneeFlexion - truth.flexion) < 2.5, "\(result.kneeFlexion) vs \(truth.flexion)")
    }

    @Test func hyperextensionIsNegativeAndFlexionPastNinetyIsKept() throws {
        let leg = leg(Self.arc(peak: 97, flexion: -40))
        let session = measure(
            leg.samples(), parameters: SessionParameters(measurementProtocol: .arc),
            calibration: Calibration(mounting: leg.trueMounting))
        let result = try #require(session.result())
        #expect(abs(result.kneeExtension + 7) < 0.5)
        #expect(abs(result.kneeFlexion - 130) < 0.5)
        #expect(abs(result.minimum + 40) < 0.5)
        #expect(result.maximum > 90)
    }

    /// Strapped alike, the two sensors read the same gravity at a right angle of the knee: the knee
    /// angles need neither a calibration nor a start at 90°, which the one-sensor session takes (and
    /// would be off by the start's 8° and 12°). Uncalibrated, the filters' learnt gyro biases and
    /// the accelerometers' estimated tilts leave up to 0.23° on these two.
    @Test func boardsStrappedAlikeGiveTheKneeAnglesWithoutACalibration() throws {
        var rng = SplitMix64(seed: 41)
        for start in [-8.0, 12] {
            let mounting = rng.rotation()
            var leg = leg(Self.arc(start: start, peak: 75, flexion: -30))
            leg.shankMounting = mounting
            leg.thighMounting = mounting
            let session = measure(leg.samples(), parameters: SessionParameters(measurementProtocol: .arc))
            let result = try #require(session.result())
            let truth = truth(leg, session)
            #expect(abs(result.kneeExtension - truth.extension) < 0.5, "start \(start)")
            #expect(abs(result.kneeFlexion - truth.flexion) < 0.5, "start \(start)")
            #expect(abs(result.start - start) < 0.5, "start \(start)")
        }
    }

    /// Both gyros uncalibrated, reading 10–15 °/s at rest, the thigh shifting by 5° from 0.3 s to
    /// 1.8 s and the knee extending 0.8 s in, before either bias could be measured: the session
    /// fuses both sensors' samples again with the biases the hold measured, and the knee angles
    /// come out right, flagged moved-at-start.
    @Test(arguments: [UInt64(1), 2, 3])
    func anEarlyStartIsMeasuredWithTheBiasesBothSensorsLearntLater(seed: UInt64) throws {
        let knee = KneeMotion(keyframes: [(0.8, 0), (2.3, 80), (4.3, 80), (5.8, 0), (9, 0)])
        let thigh = KneeMotion(keyframes: [(0.3, 0), (1.8, 5), (9, 5)])
        var leg = leg(knee, thigh: thigh, seed: seed)
        leg.thighMounting = leg.shankMounting
        leg.gyroBiases = (Vector3(9, -10, 6), Vector3(-8, 7, 11))
        let session = measure(leg.samples())
        let result = try #require(session.result())
        let truth = truth(leg, session)
        #expect(result.flags.contains(.movedAtStart))
        #expect(abs(result.kneeExtension - truth.extension) < 1, "\(result.kneeExtension) vs \(truth.extension)")
        #expect(abs(result.kneeFlexion - truth.flexion) < 1, "\(result.kneeFlexion) vs \(truth.flexion)")
    }

    /// Lying on the back, the heel sliding toward the buttock: the thigh rises by half the knee's
    /// flexion, far from anything a seated patient's thigh does, and the knee angles stay right.
    @Test func heelSlidesLyingOnTheBackAreMeasured() throws {
        // The knee straight but for 3°, slid to 112° of flexion, held, and back (in the knee's
        // inclination from the thigh's perpendicular, 90° − flexion).
        let knee = KneeMotion(keyframes: [(2.5, 87), (5.5, -22), (6.5, -22), (9.5, 87), (13, 87)])
        var thigh = KneeMotion(keyframes: knee.keyframes.map { ($0.time, (90 - $0.angle) / 2) })
        thigh.sway = (0, 1)
        let leg = SyntheticLeg(
            knee: knee, thigh: thigh, shankMounting: Self.mounting, thighMounting: Self.mounting, seed: 5)
        let session = measure(leg.samples(), calibration: Calibration(mounting: leg.trueMounting))
        let result = try #require(session.result())
        #expect(session.phase == .finished(.returned))
        #expect(result.kneeAngleSource == .thighSensor)
        #expect(abs(result.kneeExtension - 3) < 0.5, "\(result.kneeExtension)")
        #expect(abs(result.kneeFlexion - 112) < 0.5, "\(result.kneeFlexion)")
        #expect(abs(result.start - 87) < 0.5)
        // Not seated, and not flagged for it: the seated assumption is not made.
        #expect(result.flags.isEmpty, "\(result.flags.names)")

        // The shank alone sees it turn by half as much.
        var shankOnly = MeasurementSession(calibration: Calibration(mounting: leg.trueMounting))
        for pair in leg.samples() where !shankOnly.isFinished { shankOnly.update(pair.shank) }
        shankOnly.stop()
        let seated = try #require(shankOnly.result())
        #expect(abs(seated.kneeArc - 109) > 40)
    }

    /// Identified axes on boards strapped any way: the thigh is taken as level at the start, and
    /// its turns from there are measured.
    @Test func identifiedHingeAxesMeasureTheThighsTurnsFromTheStart() throws {
        // Level and still at the start, then sliding 4° up.
        var leg = leg(Self.arc(start: 5, peak: 80, flexion: -30), thigh: KneeMotion(keyframes: [(3, 0), (9, 4)]))
        leg.thighMounting = Vector3(-0.9, 2.4, 0.5)
        let session = measure(
            leg.samples(), parameters: SessionParameters(measurementProtocol: .arc),
            calibration: Calibration(
                mounting: leg.trueMounting, thigh: ThighCalibration(hingeAxes: leg.trueHingeAxes)))
        let result = try #require(session.result())
        let truth = truth(leg, session)
        #expect(result.kneeAngleSource == .thighSensor)
        #expect(abs(result.kneeExtension - truth.extension) < 0.5, "\(result.kneeExtension) vs \(truth.extension)")
        #expect(abs(result.kneeFlexion - truth.flexion) < 0.5, "\(result.kneeFlexion) vs \(truth.flexion)")
    }

    @Test func aSessionWithoutAThighSensorIgnoresLaterThighSamples() throws {
        let leg = leg(KneeMotion.kneeExtension(peak: 70))
        var session = MeasurementSession(calibration: Calibration(mounting: leg.trueMounting))
        for (index, pair) in leg.samples().enumerated() where !session.isFinished {
            session.update(pair.shank, thigh: index == 0 ? nil : pair.thigh)
        }
        session.stop()
        #expect(session.thighFilter == nil)
        #expect(try #require(session.result()).kneeAngleSource == .seatedAssumption)
    }
}
