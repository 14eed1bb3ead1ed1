import Sensor
import Testing

@testable import Fusion

#if canImport(Glibc)
import Glibc
#endif

struct RestDetectorTests {
    static let sampleRate = 200.0
    static let up = Vector3(0.2, -0.1, 0.97).normalized!

    /// A gyro tremor of `rms` °/s per axis: on each axis four equal sinusoids at 6–10 Hz, whose rms is
    /// their amplitude times √2.
    struct Tremor {
        var components: [(axis: Int, amplitude: Double, omega: Double, phase: Double)] = []

        init(rms: Double, random: inout SplitMix64) {
            for axis in 0..<3 {
                for _ in 0..<4 {
                    let frequency = Double.random(in: 6...10, using: &random)
                    let phase = Double.random(in: 0..<2 * Double.pi, using: &random)
                    components.append((axis, rms / 2.0.squareRoot(), 2 * Double.pi * frequency, phase))
                }
            }
        }

        /// The rate (°/s) and, at a 10 cm lever, the tangential acceleration (g) at `time`.
        func sample(at time: Double) -> (rate: Vector3, acceleration: Vector3) {
            var rate = [0.0, 0.0, 0.0], acceleration = [0.0, 0.0, 0.0]
            for (axis, amplitude, omega, phase) in components {
                rate[axis] += amplitude * sin(omega * time + phase)
                let angular = amplitude * omega * cos(omega * time + phase) * Double.pi / 180
                acceleration[(axis + 1) % 3] += angular * 0.1 / 9.80665
            }
            return (Vector3(rate[0], rate[1], rate[2]), Vector3(acceleration[0], acceleration[1], acceleration[2]))
        }
    }

    /// A still sensor's sample `index`, with its bias, noise and the tremor, plus `turn` (°/s).
    static func sample(
        _ index: Int, bias: Vector3, tremor: Tremor?, turn: Vector3 = .zero, random: inout SplitMix64
    ) -> InertialSample {
        let time = Double(index) / sampleRate
        let shake = tremor?.sample(at: time) ?? (.zero, .zero)
        let rate: Vector3 = bias + shake.rate + turn + random.gaussianVector(sigma: 0.05)
        let acceleration: Vector3 = up + shake.acceleration + random.gaussianVector(sigma: 0.003)
        return InertialSample(time: time, acceleration: acceleration, rotationRate: rate)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func aTremblingLegComesToRestAndTheBiasIsMeasured(seed: UInt64) {
        // A tremor of 0.9 °/s rms per axis peaks beyond the 2 °/s threshold every fraction of a
        // second: tested sample by sample, the leg never came to rest and the bias was never learnt.
        var random = SplitMix64(seed: seed)
        let tremor = Tremor(rms: 0.9, random: &random)
        let bias = Vector3(4, -6, 2.5)
        var filter = OrientationFilter()
        var peaks = 0
        var restTime: Double?
        for index in 0..<Int(3 * Self.sampleRate) {
            let sample = Self.sample(index, bias: bias, tremor: tremor, random: &random)
            filter.update(sample)
            let threshold = filter.parameters.restGyroThreshold
            if (sample.rotationRate - filter.restDetector.referenceRotationRate).length > threshold { peaks += 1 }
            if restTime == nil, filter.isAtRest { restTime = sample.time }
        }
        #expect(peaks > 10)
        #expect((restTime ?? .infinity) < 2.5)
        #expect(filter.isBiasKnown)
        print("BIASERR", seed, (filter.gyroBias - bias).length, restTime ?? -1)
        // Over 60 seeds the error is 0.05 °/s in the median and 0.11 °/s at most (0.14 °/s when the
        // tremor's first peak restarted the rest instead of pausing it).
        #expect((filter.gyroBias - bias).length < 0.15)
    }

    @Test(arguments: [(peak: 3.5, isTremor: true), (peak: 8, isTremor: false)])
    func aTwitchPausesTheRunAndAJerkRestartsIt(peak: Double, isTremor: Bool) {
        // A half-sine of 0.05 s one second into a rest. Under three times the threshold, and under it
        // once smoothed, it is a tremor's first peak: the run goes on with its time counted and rest
        // comes 1.5 s after the start. Beyond that it is a movement: rest comes 1.5 s after it.
        var detector = RestDetector(parameters: FusionParameters())
        var random = SplitMix64(seed: 11)
        var restTime: Double?
        var pausedSamples = 0, beyondThreshold = 0
        for index in 0..<Int(4 * Self.sampleRate) {
            let time = Double(index) / Self.sampleRate
            let inPeak = time >= 1 && time < 1.05
            let bump = inPeak ? peak * sin(Double.pi * (time - 1) / 0.05) : 0
            let sample = Self.sample(
                index, bias: Vector3(1, -2, 0.5), tremor: nil, turn: Vector3(0, bump, 0), random: &random)
            detector.update(
                rotationRate: sample.rotationRate, acceleration: sample.acceleration,
                interval: index == 0 ? 0 : 1 / Self.sampleRate)
            if detector.isPaused { pausedSamples += 1 }
            let deviation = (sample.rotationRate - detector.referenceRotationRate).length
            if deviation > detector.parameters.restGyroThreshold { beyondThreshold += 1 }
            if restTime == nil, detector.isAtRest { restTime = time }
        }
        let rest = restTime ?? .infinity
        #expect(beyondThreshold >= 4)
        if isTremor {
            #expect(pausedSamples == beyondThreshold)
            #expect(rest >= 1.5 && rest < 1.52)
        } else {
            #expect(pausedSamples < beyondThreshold)
            #expect(rest > 2.5 && rest < 2.6)
        }
    }

    /// Samples from the first of a turn accelerating at 200 °/s² about the lateral axis (a knee
    /// extension reaching 30 °/s in 0.15 s) until the detector is no longer still; nil if it stays
    /// still for 0.5 s.
    static func samplesUntilMoving(tremor: Tremor?, random: inout SplitMix64) -> (count: Int, firstBeyond: Int)? {
        var detector = RestDetector(parameters: FusionParameters())
        let bias = Vector3(-3, 1, 2)
        let onset = Int(3 * sampleRate)
        var firstBeyond: Int?
        for index in 0..<(onset + Int(sampleRate / 2)) {
            let seconds = Double(max(0, index - onset)) / sampleRate
            let sample = sample(index, bias: bias, tremor: tremor, turn: Vector3(0, 200 * seconds, 0), random: &random)
            detector.update(
                rotationRate: sample.rotationRate, acceleration: sample.acceleration, interval: 1 / sampleRate)
            if index == onset - 1 { #expect(detector.isAtRest) }
            guard index >= onset else { continue }
            let deviation = (sample.rotationRate - detector.referenceRotationRate).length
            if firstBeyond == nil, deviation > detector.parameters.restGyroThreshold { firstBeyond = index - onset }
            if !detector.isStill { return firstBeyond.map { (index - onset, $0) } }
        }
        return nil
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func aMovementEndsATremblingRestWithinAFewSamples(seed: UInt64) throws {
        // The turn passes 6 °/s, three times the threshold and beyond any peak a tremor of 1 °/s rms
        // reaches, 0.03 s (6 samples) after it starts; the tremor adds or takes a little.
        var random = SplitMix64(seed: seed)
        let tremor = Tremor(rms: 0.9, random: &random)
        let end = try #require(Self.samplesUntilMoving(tremor: tremor, random: &random))
        #expect(end.count <= 8)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func withoutTremorAMovementEndsStillnessOnItsFirstSampleBeyondTheThreshold(seed: UInt64) throws {
        // A sensor that has shown no tremor decides sample by sample: the samples a smoothed test would
        // still call still would enter the rest's average of the bias.
        var random = SplitMix64(seed: seed)
        let end = try #require(Self.samplesUntilMoving(tremor: nil, random: &random))
        #expect(end.count == end.firstBeyond)
    }
}
