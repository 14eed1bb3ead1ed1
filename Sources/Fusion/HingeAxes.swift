#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The knee's flexion/extension axis in the frames of the two sensors on the segments it joins, the
/// thigh's and the shank's: one physical axis, so the two vectors point the same way (both lateral
/// or both medial).
public struct HingeAxes: Hashable, Sendable, Codable {
    /// Unit axis, thigh sensor frame.
    public var thigh: Vector3
    /// Unit axis, shank sensor frame.
    public var shank: Vector3

    public init(thigh: Vector3, shank: Vector3) {
        self.thigh = thigh
        self.shank = shank
    }

    /// The same axis seen from the other end: both vectors reversed.
    public var reversed: HingeAxes { HingeAxes(thigh: -thigh, shank: -shank) }
}

/// Identifies ``HingeAxes`` from the two sensors' angular rates alone, magnetometer-free and without
/// knowing the segments' orientations (Seel, Raisch & Schauer, "IMU-Based Joint Angle Measurement
/// for Gait Analysis", Sensors 2014).
///
/// A hinge lets the shank turn relative to the thigh about one axis only. Whatever the segments do,
/// their rates then differ only along that axis, so the rates' components perpendicular to it are
/// one vector seen from either frame and have equal lengths at every instant:
/// ‖ω₁ × j₁‖ = ‖ω₂ × j₂‖. The axes are the unit vectors that make these lengths agree best over a
/// recording (least squares over their spherical coordinates, Levenberg–Marquardt).
///
/// The constraint only binds where the thigh turns too: with the thigh still, any thigh axis fits.
/// The recording must therefore swing the whole leg from the hip while the knee bends, as in
/// walking; ``Fit/isDetermined`` says whether it did.
public enum HingeAxisIdentification {
    /// The identified axes and how well the recording determined them.
    public struct Fit: Hashable, Sendable {
        /// The axes, both pointing the same way along the knee. Which way is arbitrary: the caller
        /// orients them from a known motion.
        public var axes: HingeAxes
        /// Root mean square of ‖ω₁ × j₁‖ − ‖ω₂ × j₂‖ over the samples used, in the rates' unit.
        public var residual: Double
        /// The root mean square rate of the thigh perpendicular to its axis, in the rates' unit:
        /// the motion that determines the thigh's axis.
        public var thighExcitation: Double
        /// The root mean square rate of the shank perpendicular to its axis.
        public var shankExcitation: Double
        /// How well the two rates perpendicular to the axes turn into each other as the knee
        /// bends, from 0 (not at all) to 1 (exactly): what tells that the axes point the same way.
        public var coherence: Double

        /// True when both segments turned enough, and the constraint held closely enough, for the
        /// axes to be trusted: the residual is small against the motion that determined them, and
        /// the rates agree in direction as well as in size.
        public var isDetermined: Bool {
            min(thighExcitation, shankExcitation) > 4 * residual && residual.isFinite && coherence > 0.9
        }
    }

    /// Fits the axes to pairs of simultaneous rates (thigh, shank) in °/s, `interval` seconds apart.
    ///
    /// Samples where neither segment turns carry no information and only add noise; they are left
    /// out of the fit, and at most `maximumSamples` of the others are used, evenly spread.
    /// - Returns: `nil` when fewer than 20 samples carry motion.
    public static func identify(
        rates: [(thigh: Vector3, shank: Vector3)], interval: Double, maximumSamples: Int = 2000
    ) -> Fit? {
        let peak = rates.map { max($0.thigh.length, $0.shank.length) }.max() ?? 0
        guard peak > 0, peak.isFinite else { return nil }
        // A tenth of the fastest turn: rest and sensor noise fall below it in any recording that
        // has a swing in it, and the swings themselves stay.
        let moving = rates.filter { max($0.thigh.length, $0.shank.length) > 0.1 * peak }
        guard moving.count >= 20 else { return nil }
        let stride = max(1, (moving.count + maximumSamples - 1) / maximumSamples)
        let used = Swift.stride(from: 0, to: moving.count, by: stride).map { moving[$0] }

        var best: (parameters: [Double], cost: Double)?
        // Least squares over a sphere has local minima; a few starting directions for each axis,
        // including the shank's dominant rotation axis, find the global one for knee motion.
        var scatter = RotationScatter()
        for pair in used { scatter.add(pair.shank, interval: 1) }
        let dominant = scatter.principalAxis(perpendicularTo: smallestComponentAxis(of: used)).map(\.axis)
        let starts = [Vector3.unitX, .unitY, .unitZ] + (dominant.map { [$0] } ?? [])
        for thighStart in starts {
            for shankStart in starts {
                let initial = spherical(thighStart) + spherical(shankStart)
                guard let fitted = levenbergMarquardt(initial, used) else { continue }
                if best.map({ fitted.cost < $0.cost }) ?? true { best = fitted }
            }
        }
        guard let best else { return nil }
        let shank = unit(best.parameters[2], best.parameters[3])
        var thigh = unit(best.parameters[0], best.parameters[1])
        // The sizes cannot tell whether the axes point the same way; the directions can.
        let same = coherence(rates, thigh: thigh, shank: shank, interval: interval)
        let opposite = coherence(rates, thigh: -thigh, shank: shank, interval: interval)
        if opposite > same { thigh = -thigh }
        var thighSum = 0.0, shankSum = 0.0
        for pair in used {
            thighSum += pair.thigh.cross(thigh).lengthSquared
            shankSum += pair.shank.cross(shank).lengthSquared
        }
        let count = Double(used.count)
        return Fit(
            axes: HingeAxes(thigh: thigh, shank: shank), residual: (best.cost / count).squareRoot(),
            thighExcitation: (thighSum / count).squareRoot(), shankExcitation: (shankSum / count).squareRoot(),
            coherence: max(same, opposite))
    }

    /// How closely the shank's rate perpendicular to its axis is the thigh's, turned by the knee
    /// angle, for axes taken to point the same way.
    ///
    /// Both segments share the rate perpendicular to the hinge (they differ only along it), but
    /// each frame sees it turned by the frame's own orientation about the axis. Written as complex
    /// numbers in right-handed bases of the planes perpendicular to the axes, z₂ = z₁ e^{i(c − θ)},
    /// with c fixed by the mounting and θ the knee angle, θ̇ = ω₂·j₂ − ω₁·j₁. So Σ z₂ z̄₁ e^{iθ}
    /// adds up in one direction, to Σ |z₁||z₂|, when the axes point the same way. With one axis
    /// reversed its basis is mirrored and θ is wrong, and the terms turn against each other as the
    /// knee bends.
    private static func coherence(
        _ rates: [(thigh: Vector3, shank: Vector3)], thigh: Vector3, shank: Vector3, interval: Double
    ) -> Double {
        func basis(_ axis: Vector3) -> (Vector3, Vector3) {
            let seed = abs(axis.x) < 0.9 ? Vector3.unitX : Vector3.unitY
            let a = seed.rejecting(axis).normalized ?? .unitX
            return (a, axis.cross(a))
        }
        let (thighA, thighB) = basis(thigh), (shankA, shankB) = basis(shank)
        var angle = 0.0
        var real = 0.0, imaginary = 0.0, magnitude = 0.0
        let radiansPerDegree = Double.pi / 180
        for pair in rates {
            let (x1, y1) = (pair.thigh.dot(thighA), pair.thigh.dot(thighB))
            let (x2, y2) = (pair.shank.dot(shankA), pair.shank.dot(shankB))
            // z₂ z̄₁ e^{iθ}
            let productReal = x2 * x1 + y2 * y1, productImaginary = y2 * x1 - x2 * y1
            let (c, s) = (cos(angle), sin(angle))
            real += productReal * c - productImaginary * s
            imaginary += productReal * s + productImaginary * c
            magnitude += ((x1 * x1 + y1 * y1) * (x2 * x2 + y2 * y2)).squareRoot()
            angle += (pair.shank.dot(shank) - pair.thigh.dot(thigh)) * radiansPerDegree * interval
        }
        guard magnitude > 0 else { return 0 }
        return (real * real + imaginary * imaginary).squareRoot() / magnitude
    }

    /// An axis the shank hardly turns about, to exclude from the scatter's principal axis: the
    /// sensor axis with the least rotation energy.
    private static func smallestComponentAxis(of rates: [(thigh: Vector3, shank: Vector3)]) -> Vector3 {
        var energy = Vector3.zero
        for pair in rates { energy += pair.shank.scaled(by: pair.shank) }
        if energy.x <= energy.y && energy.x <= energy.z { return .unitX }
        return energy.y <= energy.z ? .unitY : .unitZ
    }

    /// (φ, θ) with j = (cos φ cos θ, cos φ sin θ, sin φ).
    private static func spherical(_ v: Vector3) -> [Double] {
        [asin(max(-1, min(1, v.z))), atan2(v.y, v.x)]
    }

    private static func unit(_ phi: Double, _ theta: Double) -> Vector3 {
        Vector3(cos(phi) * cos(theta), cos(phi) * sin(theta), sin(phi))
    }

    /// ∂j/∂φ and ∂j/∂θ.
    private static func derivatives(_ phi: Double, _ theta: Double) -> (Vector3, Vector3) {
        (
            Vector3(-sin(phi) * cos(theta), -sin(phi) * sin(theta), cos(phi)),
            Vector3(-cos(phi) * sin(theta), cos(phi) * cos(theta), 0)
        )
    }

    /// ‖ω × j‖ and its gradient with respect to j: (|ω|² j − (ω·j) ω) / ‖ω × j‖.
    private static func perpendicularRate(_ rate: Vector3, _ axis: Vector3) -> (Double, Vector3) {
        let along = rate.dot(axis)
        let squared = max(0, rate.lengthSquared - along * along)
        let length = squared.squareRoot()
        // Where ω ∥ j the norm has no gradient; a zero one leaves that sample out of the step.
        guard length > 1e-12 else { return (0, .zero) }
        return (length, (axis * rate.lengthSquared - rate * along) / length)
    }

    private static func cost(_ p: [Double], _ rates: [(thigh: Vector3, shank: Vector3)]) -> Double {
        let thigh = unit(p[0], p[1]), shank = unit(p[2], p[3])
        var sum = 0.0
        for pair in rates {
            let e = perpendicularRate(pair.thigh, thigh).0 - perpendicularRate(pair.shank, shank).0
            sum += e * e
        }
        return sum
    }

    private static func levenbergMarquardt(
        _ initial: [Double], _ rates: [(thigh: Vector3, shank: Vector3)]
    ) -> (parameters: [Double], cost: Double)? {
        var p = initial
        var current = cost(p, rates)
        var damping = 1e-3
        for _ in 0..<60 {
            let thigh = unit(p[0], p[1]), shank = unit(p[2], p[3])
            let (dThighPhi, dThighTheta) = derivatives(p[0], p[1])
            let (dShankPhi, dShankTheta) = derivatives(p[2], p[3])
            var normal = [[Double]](repeating: [0, 0, 0, 0], count: 4)
            var gradient = [0.0, 0, 0, 0]
            for pair in rates {
                let (thighLength, thighGradient) = perpendicularRate(pair.thigh, thigh)
                let (shankLength, shankGradient) = perpendicularRate(pair.shank, shank)
                let e = thighLength - shankLength
                let row = [
                    thighGradient.dot(dThighPhi), thighGradient.dot(dThighTheta),
                    -shankGradient.dot(dShankPhi), -shankGradient.dot(dShankTheta),
                ]
                for i in 0..<4 {
                    gradient[i] += row[i] * e
                    for k in 0..<4 { normal[i][k] += row[i] * row[k] }
                }
            }
            var improved = false
            while damping < 1e8 {
                var damped = normal
                for i in 0..<4 { damped[i][i] += damping * max(normal[i][i], 1e-12) }
                guard let step = solve(damped, gradient.map { -$0 }) else {
                    damping *= 10
                    continue
                }
                let candidate = zip(p, step).map { $0 + $1 }
                let candidateCost = cost(candidate, rates)
                if candidateCost < current {
                    let gain = current - candidateCost
                    p = candidate
                    current = candidateCost
                    damping = max(damping / 10, 1e-9)
                    improved = gain > current * 1e-10
                    break
                }
                damping *= 10
            }
            if !improved { break }
        }
        return current.isFinite ? (p, current) : nil
    }
}
