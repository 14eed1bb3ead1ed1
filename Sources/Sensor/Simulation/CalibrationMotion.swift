#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The guided calibration as the board experiences it: lying still on a table, tipped over its
/// edges onto each of its six faces in turn and then once more onto a face used before (each of
/// its three axes turned about twice, from faces at right angles), then strapped to the shin of a
/// seated patient who extends the knee once and lowers it.
///
/// The board turns about its own centre on the table, so the tumbling adds no linear acceleration;
/// each turn is a minimum-jerk rotation about one world axis. Orientations are world ← board.
public struct CalibrationMotion: Equatable, Sendable {
    /// One movement: a turn (about a world axis) followed by a hold.
    public struct Move: Equatable, Sendable {
        /// The turn's axis in world axes and its angle (degrees).
        public var axis: SIMD3<Double>
        public var angleDegrees: Double
        /// How long the turn and the following hold last, seconds.
        public var turnSeconds: Double
        public var holdSeconds: Double

        public init(axis: SIMD3<Double>, angleDegrees: Double, turnSeconds: Double, holdSeconds: Double) {
            self.axis = axis
            self.angleDegrees = angleDegrees
            self.turnSeconds = turnSeconds
            self.holdSeconds = holdSeconds
        }
    }

    /// Still on the table before the first turn, seconds (the gyro-bias window and then some).
    public let leadInSeconds: Double
    /// The table part: five turns, each onto a face not shown before, and one back onto a face
    /// used before.
    public let faceMoves: [Move]
    /// The knee swing after strapping on.
    public let swing: KneeExtension
    /// From the last face to the strapped start pose, seconds.
    public let strapSeconds: Double
    /// Still in the strapped start pose before the swing, seconds.
    public let startPoseSeconds: Double
    /// The board's orientation on the table after each move (the first: lying face up); kept
    /// because every simulated sample needs them.
    let tableOrientations: [Rotation]

    public init(
        leadInSeconds: Double, faceMoves: [Move], swing: KneeExtension, strapSeconds: Double, startPoseSeconds: Double
    ) {
        self.leadInSeconds = leadInSeconds
        self.faceMoves = faceMoves
        self.swing = swing
        self.strapSeconds = strapSeconds
        self.startPoseSeconds = startPoseSeconds
        var orientations = [Rotation.identity]
        for move in faceMoves {
            orientations.append(
                Rotation(axis: move.axis, angleDegrees: move.angleDegrees) * orientations[orientations.count - 1])
        }
        tableOrientations = orientations
    }

    /// A procedure at a person's pace: holds of `holdSeconds` (at least 2.5 s for the rest
    /// detector to accept a pose), turns of about a second and a half, a 70° knee swing.
    /// `seed` varies the timing a little (±20 %), so scenarios differ like people do.
    /// `shinDegrees` is where the shin rests when the procedure asks for it hanging vertical:
    /// a seated patient's lower leg rarely hangs plumb, and the default 3° forward is the pose
    /// error the calibration then takes as vertical. `retakes` are the faces (each the board axis
    /// that points up) turned up after the seventh pose, as a procedure that lost samples in a tip
    /// asks; the procedure's other timings are those without them.
    public static func guided(
        seed: UInt64, holdSeconds: Double = 4, shinDegrees: Double = 3, retakes: [SIMD3<Double>] = []
    ) -> CalibrationMotion {
        var random = SplitMix64(seed: seed ^ 0xCA11_B4A7_E000_0001)
        func jitter(_ value: Double) -> Double { value * (0.8 + 0.4 * random.nextUnit()) }
        // Face up (+z), then +y, −z (two tips about the board's x axis), +x (about y), −y and −x
        // (two about z), and back to −z (about y): every axis turned about twice, from faces at
        // right angles, as the gyro's full correction needs.
        let faces: [SIMD3<Double>] = [
            [0, 0, 1], [0, 1, 0], [0, 0, -1], [1, 0, 0], [0, -1, 0], [-1, 0, 0], [0, 0, -1],
        ]
        var orientation = Rotation.identity
        var moves: [Move] = []
        func tip(from: SIMD3<Double>, to: SIMD3<Double>) {
            // Turning by 90° about to × from (board axes) brings `to` where `from` was: up; onto
            // the opposite face, 180° about an axis across both.
            var boardAxis = SIMD3(
                to.y * from.z - to.z * from.y, to.z * from.x - to.x * from.z, to.x * from.y - to.y * from.x)
            let angle: Double = (boardAxis * boardAxis).sum() > 0.5 ? 90 : 180
            if angle == 180 { boardAxis = abs(from.z) > 0.5 ? [1, 0, 0] : [0, 0, 1] }
            let worldAxis = orientation * boardAxis
            moves.append(
                Move(axis: worldAxis, angleDegrees: angle, turnSeconds: jitter(1.5), holdSeconds: jitter(holdSeconds)))
            orientation = Rotation(axis: worldAxis, angleDegrees: angle) * orientation
        }
        for (from, to) in zip(faces, faces.dropFirst()) { tip(from: from, to: to) }
        // Drawn in this order so that the procedure without retakes stays as it always was.
        let leadIn = jitter(4.5)
        let swing = KneeExtension(
            restDegrees: shinDegrees, peakDegrees: 70, peakSpeedDegreesPerSecond: jitter(90),
            holdSeconds: jitter(1), returnDegrees: shinDegrees, leadInSeconds: jitter(3), leadOutSeconds: 3)
        let strap = jitter(4)
        var up = faces[faces.count - 1]
        for face in retakes {
            tip(from: up, to: face)
            up = face
        }
        return CalibrationMotion(
            leadInSeconds: leadIn, faceMoves: moves, swing: swing, strapSeconds: strap, startPoseSeconds: 2)
    }

    /// The whole procedure, seconds.
    public var durationSeconds: Double {
        leadInSeconds + faceMoves.reduce(0) { $0 + $1.turnSeconds + $1.holdSeconds } + strapSeconds
            + startPoseSeconds + swing.durationSeconds
    }

    /// The orientation (world ← board), angular rate in board axes (°/s) and shank inclination
    /// (degrees; 0 until strapped) at `t`, for a board strapped with `mounting` (board → shank).
    func pose(atSeconds t: Double, mounting: Rotation) -> (
        orientation: Rotation, rateDPS: SIMD3<Double>, inclination: Double
    ) {
        let orientations = tableOrientations
        var start = leadInSeconds
        guard t >= start else { return (orientations[0], .zero, 0) }
        for (index, move) in faceMoves.enumerated() {
            let before = orientations[index]
            if t < start + move.turnSeconds {
                let (angle, rate) = minimumJerk(move.angleDegrees, duration: move.turnSeconds, t: t - start)
                let orientation = Rotation(axis: move.axis, angleDegrees: angle) * before
                return (orientation, orientation.transposed * (unit(move.axis) * rate), 0)
            }
            start += move.turnSeconds
            if t < start + move.holdSeconds { return (orientations[index + 1], .zero, 0) }
            start += move.holdSeconds
        }
        // Strapping on: one turn from the last face to the shin pose (shin vertical).
        let last = orientations[orientations.count - 1]
        let strapped = Rotation(axis: [0, 1, 0], angleDegrees: -swing.restDegrees) * mounting
        let (axis, angle) = axisAngle(strapped * last.transposed)
        if t < start + strapSeconds {
            let (turned, rate) = minimumJerk(angle, duration: strapSeconds, t: t - start)
            let orientation = Rotation(axis: axis, angleDegrees: turned) * last
            return (orientation, orientation.transposed * (axis * rate), 0)
        }
        start += strapSeconds + startPoseSeconds
        // The swing: the shank turns by −θ about the world's y axis (raising the foot turns the
        // anterior axis towards up), as in `MotionModel`.
        let (theta, rate, _) = swing.inclination(atSeconds: t - start)
        let orientation = Rotation(axis: [0, 1, 0], angleDegrees: -theta) * mounting
        return (orientation, mounting.transposed * SIMD3(0, -rate, 0), theta)
    }

    private func unit(_ v: SIMD3<Double>) -> SIMD3<Double> {
        v / (v * v).sum().squareRoot()
    }

    /// Angle (degrees) and rate (°/s) of a minimum-jerk turn by `total` degrees.
    private func minimumJerk(_ total: Double, duration: Double, t: Double) -> (Double, Double) {
        let tau = min(max(t / duration, 0), 1)
        let s = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau)
        let ds = 30 * tau * tau * (1 - tau) * (1 - tau)
        return (total * s, total * ds / duration)
    }

    /// The unit axis and angle (degrees) of a rotation matrix.
    private func axisAngle(_ r: Rotation) -> (SIMD3<Double>, Double) {
        let trace = r.x.x + r.y.y + r.z.z
        let angle = acos(min(1, max(-1, (trace - 1) / 2)))
        guard angle > 1e-9 else { return ([1, 0, 0], 0) }
        var axis = SIMD3(r.y.z - r.z.y, r.z.x - r.x.z, r.x.y - r.y.x)
        if angle > .pi - 1e-3 {
            // Near 180° the skew part vanishes: the axis is the largest column of R + I.
            let columns = [r.x + [1, 0, 0], r.y + [0, 1, 0], r.z + [0, 0, 1]]
            axis = columns.max { ($0 * $0).sum() < ($1 * $1).sum() } ?? [1, 0, 0]
        }
        return (unit(axis), angle * 180 / .pi)
    }
}
