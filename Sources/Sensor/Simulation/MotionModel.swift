#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The true motion of a board strapped to the shank of a seated patient, with ground truth.
///
/// World axes: x anterior, y to the patient's left, z up. Shank axes: x anterior (out of the shin),
/// y left, z along the shank towards the knee; they coincide with the world's when the shin hangs
/// vertical. `mounting` maps board axes to shank axes, so the board reads `mountingᵀ` times the
/// shank-frame values. The thigh pitching about the hip (`thighMovement`) carries the knee joint
/// and turns the shank with it: the shank's inclination is the thigh's pitch plus the knee's own
/// movement, and the truth includes both.
public struct MotionModel: Equatable, Sendable {
    /// What the shank does.
    public enum Movement: Equatable, Sendable {
        /// Held at a fixed inclination (degrees).
        case still(inclinationDegrees: Double)
        case kneeExtension(KneeExtension)
        /// Extension, then flexion past vertical.
        case kneeArc(KneeArc)
        /// The guided calibration: six faces on a table, then strapped on (with `mounting`) and
        /// one knee swing.
        case calibration(CalibrationMotion)
        /// The calibration's knee-axis step: free knee swings with the thigh moving a little, out
        /// of the sagittal plane too; the thigh's board reads the same leg.
        case kneeSwings(KneeSwings)
    }

    /// What the shank does over time.
    public var movement: Movement
    /// Board axes → shank axes.
    public var mounting: Rotation
    /// The thigh's slow pitching, which moves the knee and turns the shank.
    public var thighMovement: ThighMovement
    /// Along the shank from the knee joint to the board, metres.
    public var sensorDistanceFromKneeMeters: Double
    /// From the shank's axis forward to the board (soft tissue and bone), metres.
    public var sensorDepthMeters: Double
    /// Which segment's board this model reads: the shank's (the one every session has) or the
    /// thigh's, which sees the same leg move.
    public var segment: LegSegment
    /// Where in the movement the board's sample clock starts, seconds: a second board on the
    /// leg, brought up after the first, starts that much later in the same movement.
    public var startSeconds: Double = 0

    /// The two segments a board can be strapped to.
    public enum LegSegment: Equatable, Sendable {
        case shank
        /// On top of the thigh, `distanceFromHipMeters` along it and `depthMeters` above its axis.
        case thigh(distanceFromHipMeters: Double = 0.25, depthMeters: Double = 0.07)
    }

    public init(
        movement: Movement, mounting: Rotation = .identity, thighMovement: ThighMovement = .none,
        sensorDistanceFromKneeMeters: Double = 0.12, sensorDepthMeters: Double = 0.04, segment: LegSegment = .shank
    ) {
        self.movement = movement
        self.mounting = mounting
        self.thighMovement = thighMovement
        self.sensorDistanceFromKneeMeters = sensorDistanceFromKneeMeters
        self.sensorDepthMeters = sensorDepthMeters
        self.segment = segment
    }

    /// The same leg read by a board strapped to the thigh with `mounting`.
    public func onThigh(mounting: Rotation = .identity) -> MotionModel {
        var thigh = self
        thigh.mounting = mounting
        thigh.segment = .thigh()
        return thigh
    }

    /// Length of the scripted movement, seconds (0 for `still`, which lasts for ever).
    public var durationSeconds: Double {
        switch movement {
        case .still: 0
        case .kneeExtension(let extension_): extension_.durationSeconds
        case .kneeArc(let arc): arc.durationSeconds
        case .calibration(let calibration): calibration.durationSeconds
        case .kneeSwings(let swings): swings.durationSeconds
        }
    }

    /// Standard gravity, m/s².
    static let gravity = 9.80665

    /// The true inclination and what an ideal board would measure at `t` seconds.
    public func state(atSeconds time: Double) -> MotionState {
        let t = time + startSeconds
        if case .kneeSwings(let swings) = movement {
            return swings.state(
                atSeconds: t, segment: segment, mounting: mounting, shankDistance: sensorDistanceFromKneeMeters,
                shankDepth: sensorDepthMeters)
        }
        if case .thigh(let distance, let depth) = segment {
            return thighState(atSeconds: t, distanceFromHip: distance, depth: depth)
        }
        if case .calibration(let calibration) = movement {
            return Self.state(of: calibration, atSeconds: t, mounting: mounting)
        }
        let (kneeDegrees, kneeRateDPS, kneeAccelerationDPS2) =
            switch movement {
            case .still(let inclination): (inclination, 0.0, 0.0)
            case .kneeExtension(let extension_): extension_.inclination(atSeconds: t)
            case .kneeArc(let arc): arc.inclination(atSeconds: t)
            case .calibration, .kneeSwings: (0.0, 0.0, 0.0)
            }
        let thigh = thighMovement.pitch(atSeconds: t)
        let angleDegrees: Double = kneeDegrees + thigh.angle
        let rateDPS: Double = kneeRateDPS + thigh.rate
        let radians = Double.pi / 180
        let theta = angleDegrees * radians
        // e1 points from knee to ankle, e2 anterior; both in the sagittal plane.
        let e1 = SIMD3<Double>(sin(theta), 0, -cos(theta))
        let e2 = SIMD3<Double>(cos(theta), 0, sin(theta))
        // Raising the foot turns anterior (x) towards up (z): a negative rotation about y.
        return boardState(
            segment: SegmentMotion(
                radial: e1, tangential: e2, rate: rateDPS * radians,
                angularAcceleration: (kneeAccelerationDPS2 + thigh.acceleration) * radians,
                pivotAcceleration: thighMovement.kneeAcceleration(atSeconds: t)),
            distance: sensorDistanceFromKneeMeters, depth: sensorDepthMeters, frameX: e2, frameZ: -e1,
            rateAboutYDPS: -rateDPS, inclinationDegrees: angleDegrees)
    }

    /// A segment turning in the sagittal plane about a pivot: `radial` points from the pivot along
    /// it and `tangential` is where a turn of positive `rate` (rad/s) takes it, both unit vectors in
    /// world axes; the pivot itself accelerates by `pivotAcceleration` (m/s²).
    fileprivate struct SegmentMotion {
        var radial: SIMD3<Double>
        var tangential: SIMD3<Double>
        var rate: Double
        var angularAcceleration: Double
        var pivotAcceleration: SIMD3<Double>
    }

    /// What the board reads `distance` along the segment and `depth` toward `tangential` from its
    /// axis: gravity and its acceleration, in the segment frame (`frameX`, world y, `frameZ`) turned
    /// into board axes by ``mounting``.
    fileprivate func boardState(
        segment: SegmentMotion, distance: Double, depth: Double, frameX: SIMD3<Double>, frameZ: SIMD3<Double>,
        rateAboutYDPS: Double, inclinationDegrees: Double
    ) -> MotionState {
        let rate = segment.rate, acceleration = segment.angularAcceleration
        // Split into typed terms: the chained expression is slow to type-check.
        let along: SIMD3<Double> = distance * (acceleration * segment.tangential - rate * rate * segment.radial)
        let out: SIMD3<Double> = depth * (-acceleration * segment.radial - rate * rate * segment.tangential)
        let boardAcceleration: SIMD3<Double> = segment.pivotAcceleration + along + out
        let specificForceWorld = boardAcceleration / Self.gravity + SIMD3(0, 0, 1)
        let specificForce = SIMD3(
            (specificForceWorld * frameX).sum(), specificForceWorld.y, (specificForceWorld * frameZ).sum())
        let toBoard = mounting.transposed
        return MotionState(
            inclinationDegrees: inclinationDegrees, angularRateDPS: toBoard * SIMD3(0, rateAboutYDPS, 0),
            specificForceG: toBoard * specificForce)
    }
}

extension MotionModel {
    /// The thigh board's readings: the thigh pitching about the hip by ``ThighMovement``, the board
    /// on top of it. Its inclination is the thigh's pitch (0 level, positive raising the knee).
    fileprivate func thighState(atSeconds t: Double, distanceFromHip: Double, depth: Double) -> MotionState {
        let (pitch, rateDPS, accelerationDPS2) = thighMovement.pitch(atSeconds: t)
        let radians = Double.pi / 180
        let phi = pitch * radians
        // Along the thigh toward the knee, and up out of its top; both in the sagittal plane.
        let along = SIMD3<Double>(cos(phi), 0, sin(phi))
        let up = SIMD3<Double>(-sin(phi), 0, cos(phi))
        // Raising the knee turns the thigh's x (toward the knee) toward up (z): negative about y,
        // the same axis and sense as the shank's extension.
        return boardState(
            segment: SegmentMotion(
                radial: along, tangential: up, rate: rateDPS * radians, angularAcceleration: accelerationDPS2 * radians,
                pivotAcceleration: .zero),
            distance: distanceFromHip, depth: depth, frameX: along, frameZ: up, rateAboutYDPS: -rateDPS,
            inclinationDegrees: pitch)
    }

    /// The calibration's readings: gravity alone (the board turns about its centre), in board axes.
    fileprivate static func state(of calibration: CalibrationMotion, atSeconds t: Double, mounting: Rotation)
        -> MotionState
    {
        let pose = calibration.pose(atSeconds: t, mounting: mounting)
        return MotionState(
            inclinationDegrees: pose.inclination, angularRateDPS: pose.rateDPS,
            specificForceG: pose.orientation.transposed * SIMD3(0, 0, 1))
    }
}

/// Ground truth and ideal readings at one instant.
public struct MotionState: Equatable, Sendable {
    /// Shank sagittal inclination from vertical, degrees (0 = shin vertical, 90 = horizontal).
    public var inclinationDegrees: Double
    /// True angular rate in board axes, °/s.
    public var angularRateDPS: SIMD3<Double>
    /// True specific force in board axes, g (1 g up at rest).
    public var specificForceG: SIMD3<Double>
}

/// The thigh pitching slowly about the hip while seated (swaying, sliding on the chair): it raises
/// and lowers the knee and turns the shank by the same angle. A sway, plus a drift that carries
/// the thigh smoothly to a new pitch.
public struct ThighMovement: Equatable, Sendable {
    /// Peak pitch of the sway, degrees.
    public var amplitudeDegrees: Double
    /// One sway, seconds (0 = no sway).
    public var periodSeconds: Double
    /// Where in its sway the thigh starts, radians (0 = level, rising).
    public var phase: Double
    /// Where the drift ends, degrees (positive raising the knee).
    public var driftDegrees: Double
    /// How long the drift takes from the start, seconds: a minimum-jerk movement, slow enough
    /// that a rest detector can take it for stillness.
    public var driftSeconds: Double
    /// Hip to knee, metres.
    public var thighLengthMeters: Double

    public init(
        amplitudeDegrees: Double, periodSeconds: Double, phase: Double = 0, driftDegrees: Double = 0,
        driftSeconds: Double = 0, thighLengthMeters: Double = 0.45
    ) {
        self.amplitudeDegrees = amplitudeDegrees
        self.periodSeconds = periodSeconds
        self.phase = phase
        self.driftDegrees = driftDegrees
        self.driftSeconds = driftSeconds
        self.thighLengthMeters = thighLengthMeters
    }

    /// A still thigh.
    public static let none = ThighMovement(amplitudeDegrees: 0, periodSeconds: 0)

    /// A patient sitting almost still: ±0.3° over 8 s (0.24 °/s at most, well inside the rest
    /// detector's thresholds).
    public static let small = ThighMovement(amplitudeDegrees: 0.3, periodSeconds: 8)

    /// A restless patient: ±3° over 6 s (3.1 °/s at most), the thigh motion a single shank sensor
    /// cannot tell from the knee's.
    public static let sway = ThighMovement(amplitudeDegrees: 3, periodSeconds: 6)

    /// The thigh sliding 3° on the chair over 20 s (0.28 °/s at most): slow enough to pass for
    /// stillness.
    public static let drift = ThighMovement(amplitudeDegrees: 0, periodSeconds: 0, driftDegrees: 3, driftSeconds: 20)

    /// Names accepted by ``named(_:)`` (and `--thigh-motion`).
    public static let names = ["drift", "small", "still", "sway"]

    /// A thigh movement by name: `still`, `small`, `sway` or `drift`.
    public static func named(_ name: String) -> ThighMovement? {
        switch name {
        case "still": ThighMovement.none
        case "small": small
        case "sway": sway
        case "drift": drift
        default: nil
        }
    }

    /// The thigh's pitch (degrees, positive raising the knee), its rate (°/s) and angular
    /// acceleration (°/s²) at `t`: A sin(ωt + phase) plus the drift.
    func pitch(atSeconds t: Double) -> (angle: Double, rate: Double, acceleration: Double) {
        var angle = 0.0, rate = 0.0, acceleration = 0.0
        if amplitudeDegrees != 0, periodSeconds > 0 {
            let omega = 2 * Double.pi / periodSeconds
            let argument = omega * t + phase
            let sine = sin(argument), cosine = cos(argument)
            angle = amplitudeDegrees * sine
            rate = amplitudeDegrees * omega * cosine
            acceleration = -amplitudeDegrees * omega * omega * sine
        }
        if driftDegrees != 0 {
            guard driftSeconds > 0, t < driftSeconds else { return (angle + driftDegrees, rate, acceleration) }
            // s(τ) = 10τ³ − 15τ⁴ + 6τ⁵ and its derivatives, as in `KneeExtension`.
            let tau = max(0, t) / driftSeconds
            let tau2 = tau * tau
            let tau3 = tau2 * tau
            let s: Double = 10 * tau3 - 15 * tau3 * tau + 6 * tau3 * tau2
            let ds: Double = 30 * tau2 - 60 * tau3 + 30 * tau2 * tau2
            let dds: Double = 60 * tau - 180 * tau2 + 120 * tau3
            angle += driftDegrees * s
            rate += driftDegrees * ds / driftSeconds
            acceleration += driftDegrees * dds / (driftSeconds * driftSeconds)
        }
        return (angle, rate, acceleration)
    }

    /// Knee acceleration in world axes, m/s²: the knee is at L(cos φ, 0, sin φ) from the hip.
    func kneeAcceleration(atSeconds t: Double) -> SIMD3<Double> {
        let (angle, rate, acceleration) = pitch(atSeconds: t)
        guard angle != 0 || rate != 0 else { return .zero }
        let radians = Double.pi / 180
        let phi = angle * radians, dphi = rate * radians, ddphi = acceleration * radians
        let l = thighLengthMeters
        let x: Double = l * (-sin(phi) * ddphi - cos(phi) * dphi * dphi)
        let z: Double = l * (cos(phi) * ddphi - sin(phi) * dphi * dphi)
        return SIMD3(x, 0, z)
    }
}
