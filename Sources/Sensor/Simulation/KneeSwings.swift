#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The knee-axis step of the calibration as the two boards experience it: seated, the lower leg
/// swinging freely a few times, bending and straightening the knee, while the thigh moves a
/// little in every direction (raised, turned out and in, rolled about its own axis), then seated
/// still again.
///
/// Unlike the other movements this one leaves the sagittal plane: the identification of the
/// knee's axis needs the thigh to turn about other axes than the knee's. The leg is a hinge: the
/// shank turns relative to the thigh about the knee's axis only, the segments' y axes, so the
/// true axis in a board's frame is `mountingᵀ · (0, −1, 0)` (extension positive).
public struct KneeSwings: Equatable, Sendable {
    /// Seated still before the swings and after them, seconds.
    public var restSeconds: Double
    /// Swings (a bend and a straightening each), the first and the last at half amplitude.
    public var swings: Int
    /// One swing, seconds.
    public var periodSeconds: Double
    /// Peak knee extension from the hanging shin (foot forward), degrees.
    public var extensionDegrees: Double
    /// Peak knee flexion past the hanging shin (foot under the chair), degrees.
    public var flexionDegrees: Double
    /// Peak of each of the thigh's three movements (pitch about the hip, turning out about the
    /// vertical, rolling about its own axis), degrees; 0 holds the thigh still.
    public var thighDegrees: Double
    /// Hip to knee, metres.
    public var thighLengthMeters: Double

    public init(
        restSeconds: Double = 3, swings: Int = 5, periodSeconds: Double = 1.4, extensionDegrees: Double = 55,
        flexionDegrees: Double = 25, thighDegrees: Double = 6, thighLengthMeters: Double = 0.45
    ) {
        self.restSeconds = restSeconds
        self.swings = swings
        self.periodSeconds = periodSeconds
        self.extensionDegrees = extensionDegrees
        self.flexionDegrees = flexionDegrees
        self.thighDegrees = thighDegrees
        self.thighLengthMeters = thighLengthMeters
    }

    /// At a person's pace: `seed` varies the swing's period, reach and the thigh's movement a
    /// little (±20 %).
    public static func seated(seed: UInt64, thighDegrees: Double = 6) -> KneeSwings {
        var random = SplitMix64(seed: seed ^ 0x5E17_5A1E_0000_0013)
        func jitter(_ value: Double) -> Double { value * (0.8 + 0.4 * random.nextUnit()) }
        return KneeSwings(
            restSeconds: jitter(3.5), swings: 5, periodSeconds: jitter(1.4), extensionDegrees: jitter(55),
            flexionDegrees: jitter(25), thighDegrees: jitter(thighDegrees))
    }

    public var durationSeconds: Double { 2 * restSeconds + Double(swings) * periodSeconds }

    /// The knee extension from the hanging shin and the thigh's pitch, turn and roll, degrees.
    private func angles(atSeconds t: Double) -> (knee: Double, pitch: Double, turn: Double, roll: Double) {
        let swingSeconds = Double(swings) * periodSeconds
        let u = t - restSeconds
        guard u > 0, u < swingSeconds else { return (0, 0, 0, 0) }
        // Amplitude ramps up over the first swing and down over the last, minimum-jerk, so that
        // the leg starts and ends at rest without a jolt.
        let tau = min(1, min(u, swingSeconds - u) / periodSeconds)
        let ramp: Double = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau)
        let phase = 2 * Double.pi * u / periodSeconds
        let middle = (extensionDegrees - flexionDegrees) / 2
        let reach = (extensionDegrees + flexionDegrees) / 2
        let knee: Double = ramp * (middle + reach * sin(phase))
        let thigh = ramp * thighDegrees
        return (knee, thigh * sin(phase / 1.7 + 0.5), thigh * sin(phase / 2.3 + 1), thigh * sin(phase / 1.3 + 2))
    }

    /// World ← segment rotations of the thigh (x along it toward the knee, z up out of it) and the
    /// shank (x anterior, z along it toward the knee), both the world's with the thigh level and
    /// the shin hanging.
    private func orientations(atSeconds t: Double) -> (thigh: Rotation, shank: Rotation) {
        let (knee, pitch, turn, roll) = angles(atSeconds: t)
        // Raising the knee and extending the knee both turn x toward up: negative about y.
        let thigh =
            Rotation(axis: [0, 0, 1], angleDegrees: turn) * Rotation(axis: [0, 1, 0], angleDegrees: -pitch)
            * Rotation(axis: [1, 0, 0], angleDegrees: roll)
        return (thigh, thigh * Rotation(axis: [0, 1, 0], angleDegrees: -knee))
    }

    /// Where the board is, metres from the hip: on top of the thigh or on the front of the shin.
    private func position(
        atSeconds t: Double, segment: MotionModel.LegSegment, shankDistance: Double, shankDepth: Double
    ) -> SIMD3<Double> {
        let (thigh, shank) = orientations(atSeconds: t)
        switch segment {
        case .thigh(let distance, let depth):
            return thigh * SIMD3(distance, 0, depth)
        case .shank:
            let knee = thigh * SIMD3(thighLengthMeters, 0, 0)
            return knee + shank * SIMD3(shankDepth, 0, -shankDistance)
        }
    }

    /// What the board strapped to `segment` with `mounting` (board → segment) reads at `t`; rates
    /// and accelerations by central differences of the exact pose.
    func state(
        atSeconds t: Double, segment: MotionModel.LegSegment, mounting: Rotation, shankDistance: Double,
        shankDepth: Double
    ) -> MotionState {
        func orientation(_ time: Double) -> Rotation {
            let (thigh, shank) = orientations(atSeconds: time)
            if case .thigh = segment { return thigh }
            return shank
        }
        let h = 1e-4
        let m = orientation(t - h).transposed * orientation(t + h)
        // The body rate is the skew part of Rᵀ(t − h) R(t + h) over 2h.
        let skew = SIMD3(m.y.z - m.z.y, m.z.x - m.x.z, m.x.y - m.y.x)
        let rate: SIMD3<Double> = skew / (4 * h) * (180 / Double.pi)
        let step = 1e-3
        let before = position(
            atSeconds: t - step, segment: segment, shankDistance: shankDistance, shankDepth: shankDepth)
        let now = position(atSeconds: t, segment: segment, shankDistance: shankDistance, shankDepth: shankDepth)
        let after = position(
            atSeconds: t + step, segment: segment, shankDistance: shankDistance, shankDepth: shankDepth)
        let acceleration: SIMD3<Double> = (after - 2 * now + before) / (step * step)
        let specificForce: SIMD3<Double> = acceleration / MotionModel.gravity + SIMD3(0, 0, 1)
        let toBoard = mounting.transposed
        let angles = angles(atSeconds: t)
        let inclination: Double
        if case .thigh = segment { inclination = angles.pitch } else { inclination = angles.pitch + angles.knee }
        return MotionState(
            inclinationDegrees: inclination, angularRateDPS: toBoard * rate,
            specificForceG: toBoard * (orientation(t).transposed * specificForce))
    }
}
