import Sensor
import Testing

@testable import Sampling

#if canImport(Glibc)
import Glibc
#endif

/// Two sensors on their own clocks (0.8 % fast and 0.6 % slow), drained together by a host tick
/// with jitter: every shank sample is paired once with the thigh's reading at its instant.
struct SensorPairAlignerTests {
    /// What happens to the thigh's FIFO.
    enum ThighTrouble {
        case none
        /// Nothing drained from `from` to `to` seconds; the FIFO keeps the samples.
        case stall(from: Double, to: Double)
        /// Samples in these indices are lost to an overflow.
        case overflow(Range<Int>)
    }

    struct Run {
        var pairs: [SensorPairAligner.Pair] = []
        var shankCount = 0
        /// True host time of each shank index.
        var shankTime: (Int) -> Double = { _ in 0 }
    }

    static let shankPeriod = 1 / (200 * 1.008)
    static let thighPeriod = 1 / (200 * 0.994)
    static let thighStart = 0.0023

    /// The true time of thigh sample `index`.
    static func thighTime(_ index: Int) -> Double { thighStart + Double(index) * thighPeriod }

    /// The thigh's angular rate about x at true time `t`, °/s.
    static func thighRate(_ t: Double) -> Double { 100 * sin(2 * .pi * 1.3 * t) }

    static func sample(index: Int, rate: Double) -> IMUSample {
        IMUSample(
            index: index, timeSeconds: Double(index) / 200, accelerationG: SIMD3(0, 0, 1),
            angularRateDPS: SIMD3(rate, 0, 0), temperatureCelsius: 25)
    }

    func run(seconds: Double, thighTrouble: ThighTrouble = .none, finishing: Bool = true) -> Run {
        var aligner = SensorPairAligner(nominalPeriod: 1.0 / 200)
        var random = SplitMix64(seed: 11)
        var result = Run()
        result.shankTime = { Double($0) * Self.shankPeriod }
        var nextShank = 0, nextThigh = 0
        var host = 0.0
        while host < seconds {
            // A 20 Hz tick, woken up to 3 ms late.
            host += 0.05 + random.nextUnit() * 0.003 - 0.0015
            var shank: [IMUSample] = [], thigh: [IMUSample] = []
            while Double(nextShank) * Self.shankPeriod <= host {
                shank.append(Self.sample(index: nextShank, rate: 0))
                nextShank += 1
            }
            var stalled = false
            if case .stall(let from, let to) = thighTrouble, host >= from, host < to { stalled = true }
            while !stalled, Self.thighTime(nextThigh) <= host {
                let time = Self.thighTime(nextThigh)
                if case .overflow(let lost) = thighTrouble, lost.contains(nextThigh) {
                    nextThigh += 1
                    continue
                }
                thigh.append(Self.sample(index: nextThigh, rate: Self.thighRate(time)))
                nextThigh += 1
            }
            aligner.add(shank: shank, thigh: thigh, drainedAt: host) { result.pairs.append($0) }
        }
        if finishing { aligner.finish { result.pairs.append($0) } }
        result.shankCount = nextShank
        return result
    }

    /// Largest error of the paired thigh rate against the truth at the shank sample's instant,
    /// from `after` seconds on (the clock fits need their first second) to the last drain's
    /// thigh samples (later ones are paired at ``SensorPairAligner/finish(_:)`` with the last
    /// reading there is), outside `excluding`.
    func largestError(_ run: Run, after: Double, excluding: ClosedRange<Double>? = nil) -> Double {
        let lastPaired = run.pairs.last { $0.thigh.angularRateDPS != run.pairs.last?.thigh.angularRateDPS }
        let until = lastPaired.map { run.shankTime($0.shank.index) } ?? 0
        return run.pairs.filter { pair in
            let time = run.shankTime(pair.shank.index)
            return time >= after && time < until && !(excluding?.contains(time) ?? false)
        }.map { abs($0.thigh.angularRateDPS.x - Self.thighRate(run.shankTime($0.shank.index))) }.max() ?? .infinity
    }

    func expectEveryShankSampleOnce(_ run: Run) {
        #expect(run.pairs.map(\.shank.index) == Array(0..<run.shankCount))
        #expect(
            run.pairs.allSatisfy { $0.thigh.index == $0.shank.index && $0.thigh.timeSeconds == $0.shank.timeSeconds })
    }

    @Test
    func pairsEachShankSampleWithTheThighAtItsInstant() {
        let run = run(seconds: 10)
        expectEveryShankSampleOnce(run)
        // 1.5 % of the rate's amplitude (under 2 ms); pairing by index would be off by 14 ms a second, over
        // 100 °/s of this motion after 10 s.
        #expect(largestError(run, after: 2) < 1.5)
    }

    @Test
    func aStalledThighHoldsTheShankBackWithoutLosingASample() {
        let run = run(seconds: 10, thighTrouble: .stall(from: 4, to: 4.4))
        expectEveryShankSampleOnce(run)
        #expect(largestError(run, after: 2) < 1.5)
    }

    @Test
    func anOverflowedThighIsBridged() {
        let lost = 1000..<1060
        let run = run(seconds: 10, thighTrouble: .overflow(lost))
        expectEveryShankSampleOnce(run)
        // From the last sample before the gap to the first after it, give or take the clock fits.
        let gap = Self.thighTime(lost.lowerBound - 2)...Self.thighTime(lost.upperBound + 1)
        #expect(largestError(run, after: 2, excluding: gap) < 1.5)
        // Across the gap the reading moves from one side's to the other's, never past them.
        let inside = Self.thighTime(lost.lowerBound)...Self.thighTime(lost.upperBound - 1)
        let bridged = run.pairs.filter { inside.contains(run.shankTime($0.shank.index)) }.map(\.thigh.angularRateDPS.x)
        let ends = [
            Self.thighRate(Self.thighTime(lost.lowerBound - 1)), Self.thighRate(Self.thighTime(lost.upperBound)),
        ]
        #expect(!bridged.isEmpty)
        #expect(bridged.allSatisfy { $0 >= ends.min()! - 1e-9 && $0 <= ends.max()! + 1e-9 })
    }

    @Test
    func samplesAheadOfTheThighWaitUntilFinish() {
        let unfinished = run(seconds: 3, finishing: false)
        let finished = run(seconds: 3)
        #expect(unfinished.pairs.count < unfinished.shankCount)
        expectEveryShankSampleOnce(finished)
    }

    @Test
    func theClockFitFindsEachSensorsOwnPeriod() {
        var fit = SampleClockFit(nominalPeriod: 0.005)
        var random = SplitMix64(seed: 5)
        for drain in 1...200 {
            let host = Double(drain) * 0.05 + random.nextUnit() * 0.003
            // The newest sample taken by then, on a clock 0.8 % fast.
            fit.add(index: Int(host / Self.shankPeriod), hostTime: host)
        }
        #expect(abs(fit.period / Self.shankPeriod - 1) < 1e-4)
    }
}
