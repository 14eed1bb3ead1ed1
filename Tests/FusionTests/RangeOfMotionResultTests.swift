import Testing

@testable import Fusion

/// The worked ResearchKit knee vectors, restated in our convention: angles are shank inclination,
/// extension positive, so ResearchKit's relative angle −θ (extension) is our start + θ.
struct RangeOfMotionResultTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var angles: [Double]
        var start, finish, minimum, maximum, range: Double
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        // A: portrait, upright reference; ResearchKit gives the same numbers.
        Vector(name: "A", angles: [0, 30, 60, 85, 40, 2], start: 0, finish: 2, minimum: 0, maximum: 85, range: 85),
        // B: flexion only. ResearchKit's min-is-0 overwrite reports 4; the true span is 6.
        Vector(name: "B", angles: [0, -4, -6, -2], start: 0, finish: -2, minimum: -6, maximum: 0, range: 6),
        // C: 120° of flexion. ResearchKit wraps 120 to −240 and reports 285; no wrap here.
        Vector(name: "C", angles: [0, -45, -120], start: 0, finish: -120, minimum: -120, maximum: 0, range: 120),
        // D: start already 10° toward extension; ResearchKit gives the same numbers.
        Vector(name: "D", angles: [10, 55, 80, 10], start: 10, finish: 10, minimum: 10, maximum: 80, range: 70),
        // E and F: the same motion with the device turned; ResearchKit reads 90 (E) or 0 (F, UI
        // orientation mismatch); the result here does not depend on the device's orientation.
        Vector(name: "E/F", angles: [0, 50, 90, 5], start: 0, finish: 5, minimum: 0, maximum: 90, range: 90),
        // G: no motion.
        Vector(name: "G", angles: [0], start: 0, finish: 0, minimum: 0, maximum: 0, range: 0),
    ]
    /// The vectors with motion. A property, not a closure in `@Test(arguments:)`, which crashes
    /// Swift 6.0.3's compiler.
    static let movingVectors = vectors.filter { $0.angles.count > 1 }

    @Test(arguments: vectors)
    func matchesTheResearchKitMeaningWithoutItsQuirks(vector: Vector) throws {
        let result = try #require(RangeOfMotionResult(angles: vector.angles))
        #expect(result.start == vector.start)
        #expect(result.finish == vector.finish)
        #expect(result.minimum == vector.minimum)
        #expect(result.maximum == vector.maximum)
        #expect(result.range == vector.range)
    }

    /// The same vectors driven through the whole pipeline: synthetic samples of a shank passing through
    /// the angles, with a known mounting (the hinge from calibration, as ResearchKit's is configured).
    @Test(arguments: movingVectors)
    func theSessionReproducesTheVectors(vector: Vector) throws {
        var frames: [(time: Double, angle: Double)] = [(2.5, vector.angles[0])]
        for angle in vector.angles.dropFirst() { frames.append((frames.last!.time + 1.2, angle)) }
        frames.append((frames.last!.time + 3, vector.angles.last!))
        var imu = SyntheticIMU(
            motion: KneeMotion(keyframes: frames), mounting: Vector3(0, 0, Double.pi / 2),
            gyroNoise: 0.05, accelerationNoise: 0.003)
        imu.sampleRate = 100
        let result = try #require(measure(imu.samples(), mounting: imu.trueMounting).result())
        #expect(abs(result.start - vector.start) < 1)
        #expect(abs(result.finish - vector.finish) < 1)
        #expect(abs(result.minimum - vector.minimum) < 1)
        #expect(abs(result.maximum - vector.maximum) < 1)
        #expect(abs(result.range - vector.range) < 1)
    }

    @Test func anUnwrappedTurnPast180KeepsGoing() {
        var unwrapper = AngleUnwrapper()
        let angles = [170.0, 179, -178, -170, 175].map { unwrapper.unwrap($0) }
        #expect(angles == [170, 179, 182, 190, 175])
    }

    @Test func flagsHaveStableNames() {
        let flags: QualityFlags = [.implausible, .movedAtStart]
        #expect(flags.names == ["moved-at-start", "implausible"])
    }
}
