import Testing

@testable import Fusion

@Suite("Guided calibration")
struct GuidedCalibrationTests {
    /// The table part only, as the thigh's board does it.
    static var tableOnly: GuidedCalibration.Parameters {
        var parameters = GuidedCalibration.Parameters()
        parameters.endsAfterFaces = true
        return parameters
    }

    /// Each face held 4.5 s (the first holds the 3 s of the gyro's bias), tips of 1.5 s: the tip
    /// that leaves pose `index` spans 6 s × index + 4.5 s … + 6 s.
    static func tipSeconds(leaving index: Int) -> ClosedRange<Double> {
        let start = 6 * Double(index) + 4.5
        return start...(start + 1.5)
    }

    /// Runs `samples` through the procedure; returns the steps it went through (each once, in order)
    /// and its error, if any.
    static func run(
        _ samples: [InertialSample], parameters: GuidedCalibration.Parameters = tableOnly
    ) -> (GuidedCalibration, [GuidedCalibration.Step], CalibrationError?) {
        var procedure = GuidedCalibration(parameters: parameters)
        var steps = [procedure.step]
        do throws(CalibrationError) {
            for sample in samples where procedure.step != .finished {
                let step = try procedure.update(sample)
                if step != steps.last { steps.append(step) }
            }
        } catch {
            return (procedure, steps, error)
        }
        return (procedure, steps, nil)
    }

    static func faces(_ faces: [Vector3]) -> [InertialSample] {
        FaceCalibrationTests.faces(
            faces, bias: Vector3(2, -3, 1), gyro: FaceCalibrationTests.gyro, offset: Vector3(0.02, -0.03, 0.04),
            accelerometer: FaceCalibrationTests.accelerometer, holdSeconds: 4.5)
    }

    @Test func theSevenPosesInTheirOrderFitTheTable() throws {
        let (procedure, steps, error) = Self.run(Self.faces(FaceCalibrationTests.guideFaces))
        #expect(error == nil)
        #expect(steps == [.holdStill] + (1...6).map { .nextFace(captured: $0) } + [.finished])
        #expect(procedure.calibration != nil)
    }

    /// 0.3 s lost in the middle of the tip from +x up to −y up (about z): the seven poses then tip z
    /// once only. Rather than refuse, the procedure asks for that tip again, from −z up back to +x
    /// up, then on to −y up, and fits every complete turn: the matrices are those of the part.
    @Test func aTipThatLostSamplesIsAskedForAgainAndTheFitHoldsIt() throws {
        let lost = Self.tipSeconds(leaving: 3)
        let faces = FaceCalibrationTests.guideFaces + [.unitX, -.unitY]
        let samples = Self.faces(faces).filter {
            !((lost.lowerBound + 0.6)...(lost.lowerBound + 0.9)).contains($0.time)
        }
        let (procedure, steps, error) = Self.run(samples)
        #expect(error == nil)
        #expect(
            steps == [.holdStill] + (1...6).map { .nextFace(captured: $0) } + [
                .retakeFace("+x"), .retakeFace("-y"), .finished,
            ])
        let calibration = try #require(procedure.calibration)
        let frame = calibration.accelerometerMatrix * FaceCalibrationTests.accelerometer
        let expectedGyro = frame * (try #require(FaceCalibrationTests.gyro.inverse))
        #expect((calibration.gyroMatrix - expectedGyro).maximumMagnitude < 2e-3)
    }

    /// The same, without the tips made again: the recording ends waiting for the first.
    @Test func withoutTheTipMadeAgainTheProcedureWaitsForIt() {
        let lost = Self.tipSeconds(leaving: 3)
        let samples = Self.faces(FaceCalibrationTests.guideFaces).filter {
            !((lost.lowerBound + 0.6)...(lost.lowerBound + 0.9)).contains($0.time)
        }
        let (procedure, _, error) = Self.run(samples)
        #expect(error == nil)
        #expect(procedure.step == .retakeFace("+x"))
        #expect(procedure.calibration == nil)
    }

    /// A host that keeps losing samples: the tips made again lose theirs too, and asking for
    /// them once more would go past ``GuidedCalibration/Parameters/retakePoses``, so the
    /// calibration is refused saying why.
    @Test func aHostThatKeepsLosingSamplesIsRefusedAfterTheRetakes() {
        let faces = FaceCalibrationTests.guideFaces + [.unitX, -.unitY, -.unitZ, .unitX, -.unitY]
        // The tip from +x up to −y up, and both tips made again (−z to +x, +x to −y) lose
        // samples; asking for them again takes three more poses.
        let gaps = [3, 6, 7].map { Self.tipSeconds(leaving: $0).lowerBound }.map { ($0 + 0.6)...($0 + 0.9) }
        let samples = Self.faces(faces).filter { sample in !gaps.contains { $0.contains(sample.time) } }
        let (procedure, steps, error) = Self.run(samples)
        #expect(error == .samplesLost(turns: 3))
        #expect(steps.suffix(3) == [.nextFace(captured: 6), .retakeFace("+x"), .retakeFace("-y")])
        #expect(procedure.calibration == nil)
    }

    /// With a budget of five poses the same host gets its three: −z, +x and −y up again.
    @Test func theRetakesGoOnWhileTheBudgetLasts() throws {
        let faces = FaceCalibrationTests.guideFaces + [.unitX, -.unitY, -.unitZ, .unitX, -.unitY]
        let gaps = [3, 6, 7].map { Self.tipSeconds(leaving: $0).lowerBound }.map { ($0 + 0.6)...($0 + 0.9) }
        let samples = Self.faces(faces).filter { sample in !gaps.contains { $0.contains(sample.time) } }
        var parameters = Self.tableOnly
        parameters.retakePoses = 5
        let (procedure, steps, error) = Self.run(samples, parameters: parameters)
        #expect(error == nil)
        #expect(
            steps.suffix(6) == [
                .retakeFace("+x"), .retakeFace("-y"), .retakeFace("-z"), .retakeFace("+x"), .retakeFace("-y"),
                .finished,
            ])
        #expect(procedure.calibration != nil)
    }
}
