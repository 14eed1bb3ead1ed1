import Fusion
import Testing

@testable import Sampling
@testable import Sensor

/// Both sensors of a simulated leg on one simulated adapter, drained in the same tick: each shank
/// sample once, with the thigh's reading at its instant, whatever the thigh's FIFO does.
@Suite struct ThighPairingTests {
    let clock = ManualClock()

    /// A seated leg whose knee holds still while the thigh sways ±3° over 6 s, read by ideal
    /// sensors: the shank turns with the thigh, so at any instant both boards read the same rate
    /// about y (−the thigh's pitch rate). The boards' clocks differ by 0.4 %.
    static let swayingThigh = SimulationScenario(
        motion: MotionModel(movement: .still(inclinationDegrees: 0), thighMovement: .sway), errors: .ideal, seed: 4)

    /// What the thigh's FIFO does, seen from the host.
    enum ThighTrouble {
        case none
        /// From `from` to `to` seconds on the clock the FIFO looks empty: its count reads 0 while
        /// the samples stay in it (or, for longer than it lasts, overflow it).
        case hidden(from: Double, to: Double)
    }

    /// Brings up both boards of `scenario` on one simulated adapter, each driver on a handle of
    /// its own, the thigh's behind `trouble`.
    func legSensors(
        _ scenario: SimulationScenario = swayingThigh, trouble: ThighTrouble = .none
    ) throws -> LegSensors {
        let adapter = SimulatedI2CAdapter(scenario: scenario, fittingThigh: true, clock: clock)
        let thighBus: any I2CBus
        switch trouble {
        case .none: thighBus = adapter.open()
        case .hidden(let from, let to):
            thighBus = HidingFIFOBus(bus: adapter.open(), clock: clock, window: from..<to)
        }
        let sensors = LegSensors(
            shank: try MPU6050(bus: adapter.open(), clock: clock),
            thigh: try MPU6050(bus: thighBus, address: MPU6050.alternateAddress, clock: clock))
        try sensors.configure(.standard)
        return sensors
    }

    /// Ticks every 50 ms for `seconds` (the host stalling for `stall` seconds once, 4 s in), then
    /// finishes; every delivery in order.
    func pairs(_ sensors: LegSensors, seconds: Double, stall: Double = 0) throws -> (
        pairs: [(IMUSample, IMUSample?)], ticker: SampleTicker
    ) {
        let ticker = SampleTicker(sensor: sensors.shank, thigh: sensors.thigh, periodSeconds: 0.05, clock: clock)
        var pairs: [(IMUSample, IMUSample?)] = []
        for tick in 0..<Int(seconds / 0.05) {
            clock.advance(by: tick == 80 ? stall : 0.05)
            try ticker.tick { pairs.append(($0, $1)) }
        }
        ticker.finish { pairs.append(($0, $1)) }
        // Nothing drained is left behind.
        #expect(pairs.count == sensors.shank.stream.nextIndex - ticker.statistics.lostSamples)
        return (pairs, ticker)
    }

    /// Every shank index from 0 on exactly once (but those reported lost), each with a thigh
    /// reading carrying its index and time.
    func expectEveryShankSampleOnceWithItsThigh(_ pairs: [(IMUSample, IMUSample?)], ticker: SampleTicker) {
        let indices = pairs.map(\.0.index)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
        #expect(pairs.count + ticker.statistics.lostSamples == (indices.last ?? -1) + 1)
        #expect(pairs.allSatisfy { $0.1?.index == $0.0.index && $0.1?.timeSeconds == $0.0.timeSeconds })
        #expect(ticker.statistics.samples == pairs.count)
    }

    /// The largest difference of the two boards' rates about y over the pairs from 2 s on (the
    /// clock fits take their first second), outside `excluding` (sample times).
    func largestRateMismatch(_ pairs: [(IMUSample, IMUSample?)], excluding: Range<Double>? = nil) -> Double {
        let compared = pairs.filter { pair in
            pair.0.timeSeconds >= 2 && !(excluding?.contains(pair.0.timeSeconds) ?? false)
        }
        // The last pairs are finished against the thigh's last reading, not interpolated.
        return compared.dropLast(20).map { abs($0.0.angularRateDPS.y - ($0.1?.angularRateDPS.y ?? .infinity)) }.max()
            ?? .infinity
    }

    @Test func pairsEachShankSampleWithTheThighAtTheSameInstant() throws {
        let (pairs, ticker) = try pairs(try legSensors(), seconds: 10)
        expectEveryShankSampleOnceWithItsThigh(pairs, ticker: ticker)
        #expect(ticker.statistics.lostSamples == 0)
        #expect(pairs.count >= 1990)
        #expect(ticker.statistics.thighSamples >= 1960)
        #expect(ticker.statistics.thighLostSamples == 0)
        // The rate reaches 3.1 °/s; a pairing 5 ms off would differ by up to 0.016 °/s, and a leg
        // time that started with each board's own stream (the thigh's is brought up 0.1 s later)
        // by 0.33 °/s. What is left (0.026 °/s with seed 4) is both boards' rounding to the rate's
        // quantum (0.015 °/s at ±500 °/s) and the clock fits.
        let mismatch = largestRateMismatch(pairs)
        #expect(mismatch < 0.04, "mismatch \(mismatch) °/s")
        let moving = pairs.map { abs($0.0.angularRateDPS.y) }.max() ?? 0
        #expect(moving > 3)
    }

    @Test func aStalledThighFIFOHoldsTheShankBackWithoutLosingASample() throws {
        let sensors = try legSensors(trouble: .hidden(from: 4, to: 4.35))
        let (pairs, ticker) = try pairs(sensors, seconds: 10)
        expectEveryShankSampleOnceWithItsThigh(pairs, ticker: ticker)
        #expect(ticker.statistics.lostSamples == 0)
        #expect(ticker.statistics.thighLostSamples == 0)
        #expect(largestRateMismatch(pairs) < 0.04)
    }

    @Test func overflowedFIFOsAreCountedAndTheThighBridged() throws {
        // A host stall of 0.7 s: both FIFOs (0.43 s at 200 Hz) overflow.
        let (pairs, ticker) = try pairs(try legSensors(), seconds: 10, stall: 0.7)
        expectEveryShankSampleOnceWithItsThigh(pairs, ticker: ticker)
        #expect(ticker.statistics.lostSamples > 0)
        #expect(ticker.statistics.thighLostSamples > 0)
        // The indices after a gap are placed from the host clock to within a sample or so on
        // each board, which the thigh's clock fit follows within a few milliseconds.
        #expect(largestRateMismatch(pairs, excluding: 3.8..<5.2) < 0.05)
    }

    @Test func withoutAThighSensorEverySampleComesAlone() throws {
        let simulated = try SimulatedSensor(Self.swayingThigh, clock: clock)
        let (pairs, ticker) = try pairs(LegSensors(shank: simulated.sensor, thigh: nil), seconds: 2)
        #expect(pairs.map(\.0.index) == Array(0..<pairs.count))
        #expect(pairs.allSatisfy { $0.1 == nil })
        #expect(ticker.statistics.thighSamples == 0)
    }

    /// What goes wrong while the runner samples.
    enum RunnerTrouble: Sendable {
        case none
        /// The thigh's FIFO count reads 0 for 0.35 s.
        case thighStall
        /// The host stalls for 0.7 s, overflowing both FIFOs.
        case hostStall
    }

    @Test(arguments: [RunnerTrouble.none, .thighStall, .hostStall])
    func theRunnerFeedsTheProcedureEveryPairOnce(trouble: RunnerTrouble) throws {
        let sensors = try legSensors(trouble: trouble == .thighStall ? .hidden(from: 3, to: 3.35) : .none)
        let pacingClock: any MonotonicClock =
            trouble == .hostStall ? StallingClock(clock, sleep: 60, seconds: 0.7) : clock
        let runner = GuidedProcedureRunner(
            PairCounter(limit: 1200), sensor: sensors.shank, thigh: sensors.thigh, tickSeconds: 0.05,
            pacing: .sleeping(pacingClock), label: "test.pairs", onStep: { _ in })
        let taken = try runner.run()
        let indices = taken.shankIndices
        #expect(indices.count == 1200)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
        #expect(indices.first == 0)
        #expect(indices.count + taken.lostShankSamples == indices.last.map { $0 + 1 })
        #expect(taken.thighTimes == taken.shankTimes)
        #expect((taken.lostShankSamples > 0) == (trouble == .hostStall))
        #expect((taken.lostThighSamples > 0) == (trouble == .hostStall))
    }

    @Test func stoppingDeliversTheSamplesWaitingForTheThigh() throws {
        let sensors = try legSensors()
        let runner = GuidedProcedureRunner(
            PairCounter(limit: .max), sensor: sensors.shank, thigh: sensors.thigh, tickSeconds: 0.05,
            pacing: .sleeping(clock), label: "test.pairs", onStep: { _ in })
        // Taking effect at the first tick: the shank samples drained after the thigh's newest
        // instant are handed on too, with the thigh's last reading.
        runner.stop()
        let taken = try runner.run()
        #expect(taken.shankIndices.count == sensors.shank.stream.nextIndex)
        #expect(taken.shankIndices == Array(0..<taken.shankIndices.count))
        #expect(taken.thighTimes == taken.shankTimes)
    }
}

/// A procedure that keeps what it is given: each shank index and time and the thigh's time.
struct PairCounter: SampledProcedure {
    struct Taken: Sendable {
        var shankIndices: [Int] = []
        var shankTimes: [Double] = []
        var thighTimes: [Double?] = []
        /// Samples each sensor reported lost, from the sampling statistics.
        var lostShankSamples = 0
        var lostThighSamples = 0
    }

    let limit: Int
    var taken = Taken()
    var stopped = false

    var step: Int { taken.shankIndices.count / 200 }
    var isFinished: Bool { stopped || taken.shankIndices.count >= limit }

    mutating func take(_ sample: InertialSample, thigh: InertialSample?) throws(MeasurementError) {
        taken.shankIndices.append(Int((sample.time * 200).rounded()))
        taken.shankTimes.append(sample.time)
        taken.thighTimes.append(thigh?.time)
    }

    mutating func stop() throws(MeasurementError) {
        stopped = true
    }

    func product(sampling: SamplingStatistics) -> Result<Taken, MeasurementError> {
        var taken = taken
        taken.lostShankSamples = sampling.lostSamples
        taken.lostThighSamples = sampling.thighLostSamples
        return .success(taken)
    }

    func sensorFailure(_ error: MPU6050Error) -> MeasurementError { .sensor(error, afterSamples: 0) }

    static var aborted: MeasurementError { .aborted }
}

/// The loop's clock: `base`, whose sleep number `sleep` lasts `seconds` instead, a host stall.
final class StallingClock: MonotonicClock {
    let base: ManualClock
    let stallingSleep: Int
    let stallSeconds: Double
    private var sleeps = 0

    init(_ base: ManualClock, sleep: Int, seconds: Double) {
        self.base = base
        stallingSleep = sleep
        stallSeconds = seconds
    }

    var now: Double { base.now }

    func sleep(seconds: Double) {
        sleeps += 1
        base.advance(by: sleeps == stallingSleep ? stallSeconds : seconds)
    }
}

/// A thigh board's handle whose FIFO count reads 0 during `window` (seconds on `clock`): to the
/// driver the FIFO is empty, while the board keeps filling it.
final class HidingFIFOBus: I2CBus {
    let bus: any I2CBus
    let clock: any MonotonicClock
    let window: Range<Double>

    init(bus: any I2CBus, clock: any MonotonicClock, window: Range<Double>) {
        self.bus = bus
        self.clock = clock
        self.window = window
    }

    var devicePath: String { bus.devicePath }
    func functionality() throws(I2CError) -> I2CFunctionality { try bus.functionality() }
    func selectAddress(_ address: UInt8) throws(I2CError) { try bus.selectAddress(address) }
    func readByte(register: UInt8) throws(I2CError) -> UInt8 { try bus.readByte(register: register) }
    func writeByte(_ value: UInt8, register: UInt8) throws(I2CError) { try bus.writeByte(value, register: register) }

    func readBlock(register: UInt8, into bytes: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
        try bus.readBlock(register: register, into: bytes)
        if register == MPU6050Register.fifoCountHigh, window.contains(clock.now) {
            for i in bytes.indices { bytes[i] = 0 }
        }
    }
}
