import Sensor
import Testing

@testable import Fusion

#if canImport(Glibc)
import Glibc
#endif

/// The knee's axis identified from two sensors' rates, and the knee angle from both sensors'
/// gravity directions, on an exactly known two-segment leg.
struct HingeAxesTests {
    /// Sensor mountings (rotation vectors, radians: sensor frame to segment frame), far from
    /// aligned with the segments so that no axis is found by luck along a sensor axis.
    static let mountings: [(thigh: Vector3, shank: Vector3)] = [
        (Vector3(0.4, -1.1, 2.0), Vector3(-2.2, 0.3, 0.9)),
        (Vector3(0.1, 0.2, -0.3), Vector3(1.3, -0.4, 0.2)),
        (Vector3(-0.9, 2.4, 0.5), Vector3(0.2, 0.1, -2.8)),
    ]

    @Test(arguments: 0..<3)
    func identifiesTheAxesWhenTheWholeLegSwings(mounting: Int) throws {
        let leg = SwingingLeg(mounting: Self.mountings[mounting], hipSwing: 25)
        let fit = try #require(
            HingeAxisIdentification.identify(rates: leg.rates(gyroNoise: 0.5, seed: 7), interval: 1 / leg.sampleRate))
        let truth = leg.axes
        #expect(fit.isDetermined)
        // One physical axis: either both found as the truth or both reversed.
        let sign = fit.axes.shank.dot(truth.shank) >= 0 ? 1.0 : -1.0
        let thighError = (fit.axes.thigh * sign).angle(to: truth.thigh) * 180 / .pi
        let shankError = (fit.axes.shank * sign).angle(to: truth.shank) * 180 / .pi
        #expect(thighError < 1, "thigh axis \(thighError)° off")
        #expect(shankError < 1, "shank axis \(shankError)° off")
    }

    @Test
    func aStillThighLeavesItsAxisUndetermined() throws {
        let leg = SwingingLeg(mounting: Self.mountings[0], hipSwing: 0)
        let fit = try #require(
            HingeAxisIdentification.identify(rates: leg.rates(gyroNoise: 0.5, seed: 7), interval: 1 / leg.sampleRate))
        #expect(!fit.isDetermined)
    }

    @Test
    func refusesARecordingWithoutMotion() {
        let still = [(thigh: Vector3, shank: Vector3)](repeating: (.zero, .zero), count: 500)
        #expect(HingeAxisIdentification.identify(rates: still, interval: 0.005) == nil)
    }

    /// The knee angle from both gravity directions follows the true angle whatever the thigh does:
    /// pitched, abducted or rotated, sitting or lying.
    @Test(arguments: 0..<3)
    func kneeFlexionIsIndependentOfTheThighsPosture(mounting: Int) throws {
        let leg = SwingingLeg(mounting: Self.mountings[mounting], hipSwing: 40)
        let reference = leg.pose(hip: (0, 0, 0), flexion: 90)
        let legMounting = try #require(
            LegMounting(
                axes: leg.axes, thighGravity: reference.thighGravity, shankGravity: reference.shankGravity))
        for (hip, flexion) in [
            ((0.0, 0.0, 0.0), 90.0), ((0, 0, 0), -5), ((0, 0, 0), 130), ((-90, 0, 0), 0), ((-90, 0, 0), 145),
            ((30, 15, 10), 60), ((-45, -20, -25), 110), ((10, 40, 0), 20),
        ] {
            let pose = leg.pose(hip: hip, flexion: flexion)
            let measured = legMounting.kneeFlexion(thighGravity: pose.thighGravity, shankGravity: pose.shankGravity)
            #expect(abs(measured - flexion) < 1e-9, "hip \(hip), flexion \(flexion): measured \(measured)")
        }
    }
}

extension HingeAxesTests {
    /// Both boards through their own orientation filters while the thigh sways ±3° and drifts 6°:
    /// the knee angle from the two follows the knee itself, which one shank sensor cannot do (it
    /// counts the thigh's pitch as the knee's).
    @Test
    func twoFiltersFollowTheKneeWhileTheThighMoves() throws {
        let thighMovement = ThighMovement(amplitudeDegrees: 3, periodSeconds: 5, driftDegrees: 6, driftSeconds: 8)
        let shankMounting = Rotation(x: [0, 0, -1], y: [0, 1, 0], z: [1, 0, 0])
        let shank = MotionModel(
            movement: .kneeExtension(KneeExtension(restDegrees: 5, peakDegrees: 70, leadInSeconds: 3)),
            mounting: shankMounting, thighMovement: thighMovement)
        let thigh = shank.onThigh(mounting: Rotation(x: [0, 1, 0], y: [-1, 0, 0], z: [0, 0, 1]))
        // The reference pose: the same leg at rest at the start, thigh level, knee flexed 85°.
        var restingShank = shank, restingThigh = thigh
        restingShank.thighMovement = .none
        restingThigh.thighMovement = .none
        func vector(_ v: SIMD3<Double>) -> Vector3 { Vector3(v.x, v.y, v.z) }
        func hinge(_ mounting: Rotation) -> Vector3 { vector(mounting.transposed * SIMD3(0, -1, 0)) }
        let legMounting = try #require(
            LegMounting(
                axes: HingeAxes(thigh: hinge(thigh.mounting), shank: hinge(shankMounting)),
                thighGravity: vector(restingThigh.state(atSeconds: 0).specificForceG),
                shankGravity: vector(restingShank.state(atSeconds: 0).specificForceG), referenceFlexion: 85))

        var thighFilter = OrientationFilter(gyroBias: .zero), shankFilter = OrientationFilter(gyroBias: .zero)
        var worstTwoSensor = 0.0, worstOneSensor = 0.0
        let rate = 200.0
        for index in 0..<Int(shank.durationSeconds * rate) {
            let time = Double(index) / rate
            let thighState = thigh.state(atSeconds: time), shankState = shank.state(atSeconds: time)
            thighFilter.update(
                InertialSample(
                    time: time, acceleration: vector(thighState.specificForceG),
                    rotationRate: vector(thighState.angularRateDPS)))
            shankFilter.update(
                InertialSample(
                    time: time, acceleration: vector(shankState.specificForceG),
                    rotationRate: vector(shankState.angularRateDPS)))
            guard time > 1 else { continue }
            let truth = 90 - (shankState.inclinationDegrees - thighState.inclinationDegrees)
            let measured = legMounting.kneeFlexion(thighGravity: thighFilter.gravity, shankGravity: shankFilter.gravity)
            let oneSensor = 90 - legMounting.shank.sagittalAngle(gravity: shankFilter.gravity) - 5
            worstTwoSensor = max(worstTwoSensor, abs(measured - truth))
            worstOneSensor = max(worstOneSensor, abs(oneSensor - truth))
        }
        #expect(worstTwoSensor < 0.5, "two sensors: \(worstTwoSensor)°")
        #expect(worstOneSensor > 5, "one sensor: \(worstOneSensor)°")
    }
}

/// A thigh and a shank joined by a hinge, each carrying a sensor at a fixed rotation. World z is
/// up; in the segment frames x runs along the segment toward the foot and y is the knee's axis, and
/// knee flexion is a rotation of the shank about +y (so extension is positive about −y).
struct SwingingLeg {
    let thighMounting: Matrix3
    let shankMounting: Matrix3
    /// Peak hip swing in degrees (flexion, and half as much abduction and rotation).
    let hipSwing: Double
    let sampleRate = 200.0

    init(mounting: (thigh: Vector3, shank: Vector3), hipSwing: Double) {
        thighMounting = Quaternion(rotationVector: mounting.thigh).matrix
        shankMounting = Quaternion(rotationVector: mounting.shank).matrix
        self.hipSwing = hipSwing
    }

    /// The knee's axis, oriented so that extension is positive, in each sensor's frame.
    var axes: HingeAxes {
        HingeAxes(thigh: thighMounting.transposed * -Vector3.unitY, shank: shankMounting.transposed * -Vector3.unitY)
    }

    private static func rotation(_ axis: Vector3, degrees: Double) -> Matrix3 {
        Quaternion(rotationVector: axis * (degrees * .pi / 180)).matrix
    }

    /// Sensor-to-world rotations for hip angles (flexion about y, abduction about x, rotation about
    /// the thigh's own axis, degrees; all zero is a thigh level and pointing forward, as seated) and
    /// a knee flexion in degrees.
    func orientations(hip: (Double, Double, Double), flexion: Double) -> (thigh: Matrix3, shank: Matrix3) {
        let thigh =
            Self.rotation(.unitX, degrees: hip.1) * Self.rotation(.unitY, degrees: hip.0)
            * Self.rotation(.unitX, degrees: hip.2)
        let shank = thigh * Self.rotation(.unitY, degrees: flexion)
        return (thigh * thighMounting, shank * shankMounting)
    }

    /// Each sensor's gravity direction (away from the earth), sensor frame.
    func pose(hip: (Double, Double, Double), flexion: Double) -> (thighGravity: Vector3, shankGravity: Vector3) {
        let (thigh, shank) = orientations(hip: hip, flexion: flexion)
        return (thigh.transposed * .unitZ, shank.transposed * .unitZ)
    }

    /// Knee swings between 10° and 120° of flexion while the hip swings, as in walking, for 12 s.
    func motion(at time: Double) -> (hip: (Double, Double, Double), flexion: Double) {
        let hip = (
            hipSwing * sin(2 * .pi * 0.7 * time), 0.5 * hipSwing * sin(2 * .pi * 0.45 * time + 1),
            0.5 * hipSwing * sin(2 * .pi * 0.3 * time + 2)
        )
        return (hip, 65 - 55 * cos(2 * .pi * 0.9 * time))
    }

    /// Angular rates in °/s, sensor frames, from the orientations half a sample apart, with
    /// gyro noise of `gyroNoise` °/s per axis.
    func rates(gyroNoise: Double, seed: UInt64) -> [(thigh: Vector3, shank: Vector3)] {
        var random = SplitMix64(seed: seed)
        let interval = 1 / sampleRate
        return (0..<Int(12 * sampleRate)).map { index in
            let time = Double(index) * interval
            let before = motion(at: time - interval / 2), after = motion(at: time + interval / 2)
            let from = orientations(hip: before.hip, flexion: before.flexion)
            let to = orientations(hip: after.hip, flexion: after.flexion)
            func rate(_ a: Matrix3, _ b: Matrix3) -> Vector3 {
                // The body rate is the skew part of aᵀb over the interval (small angles).
                let m = a.transposed * b
                let vector = Vector3(m[2, 1] - m[1, 2], m[0, 2] - m[2, 0], m[1, 0] - m[0, 1]) * 0.5
                return vector * (180 / .pi / interval) + Vector3(
                    random.nextGaussian(), random.nextGaussian(), random.nextGaussian()) * gyroNoise
            }
            return (rate(from.thigh, to.thigh), rate(from.shank, to.shank))
        }
    }
}
