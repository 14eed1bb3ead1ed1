import Fusion
import Sensor

/// The work of one sampling tick, apart from whatever schedules the ticks: drain the sensor's
/// FIFO into a buffer kept from tick to tick and hand each new sample on once, with its time on
/// the sensor's sample clock (sample index / configured rate), never the host's.
///
/// With a thigh sensor on the same bus, both FIFOs are drained in the same tick and each shank
/// sample is handed on with the thigh's reading at its instant (``SensorPairAligner``): still
/// once each and in index order, but a shank sample waits for the thigh sample after its
/// instant, so a pair may come a tick later than the shank sample alone would have.
///
/// Deadlines are `start + n × period` on the injected monotonic clock, `start` being the first
/// tick, and each tick is counted against the nearest one; the ticker only observes them (``SamplingStatistics``), it never sleeps. `SamplingLoop`
/// runs it from a strict Dispatch timer, tests call ``tick(_:)`` after advancing a `ManualClock`.
/// Not thread-safe: one owner calls it (the loop's serial queue).
public final class SampleTicker {
    /// The configured sensor read on every tick: the shank's.
    public let sensor: MPU6050
    /// The thigh's sensor, configured alike, when one is fitted.
    public let thigh: MPU6050?
    /// Seconds between deadlines.
    public let periodSeconds: Double
    /// The clock deadlines are kept on (the driver's, so that the simulator and the loop agree).
    public let clock: any MonotonicClock
    /// Fraction of a period after its deadline from which a tick counts as late. A quarter of
    /// 50 ms is far beyond a Dispatch timer's normal wake-up latency and far inside the FIFO.
    public static let latenessTolerance = 0.25

    /// Counters so far.
    public private(set) var statistics = SamplingStatistics()

    private var buffer: [IMUSample] = []
    private var startTime: Double?
    private var lastDeadline = 0
    private var shankStream = StreamIndex()
    private var thighStream = StreamIndex()
    /// The new samples of one drain, kept from tick to tick so that a tick need not allocate.
    private var fresh: [IMUSample] = []
    private var aligner: SensorPairAligner?

    /// - Parameters:
    ///   - sensor: Configured (`configure(_:)` done) and owned by the ticker from now on.
    ///   - thigh: The thigh's sensor, configured as `sensor` and owned alike; nil without one.
    ///   - periodSeconds: Seconds between ticks; the FIFO must not fill within one (0.43 s at
    ///     200 Hz), so a tick drains a handful of samples.
    ///   - clock: The monotonic clock the driver and the deadlines use.
    public init(sensor: MPU6050, thigh: MPU6050? = nil, periodSeconds: Double, clock: any MonotonicClock) {
        precondition(periodSeconds > 0, "a sampling period must be positive")
        self.sensor = sensor
        self.thigh = thigh
        self.periodSeconds = periodSeconds
        self.clock = clock
        let rate = Double(sensor.configuration?.sampleRateHz ?? 1000)
        // Room for a full FIFO after a stall, so draining never grows the buffer.
        let capacity = max(128, Int((rate * periodSeconds).rounded(.up)) * 4)
        buffer.reserveCapacity(capacity)
        fresh.reserveCapacity(capacity)
        if thigh != nil { aligner = SensorPairAligner(nominalPeriod: 1 / rate) }
    }

    /// Runs one tick: reads every sample the sensor produced since the last tick and calls
    /// `deliver` with each, in index order, and the thigh's reading at its instant (nil without a
    /// thigh sensor).
    /// - Throws: `MPU6050Error` from either driver (the samples decoded before the failure are
    ///   delivered by the next tick, if there is one).
    public func tick(_ deliver: (IMUSample, IMUSample?) -> Void) throws(MPU6050Error) {
        let began = clock.now
        let start = startTime ?? began
        startTime = start
        // A tick belongs to the nearest deadline: timer wake-ups land a little after their
        // deadline or, measured against the first tick's own wake-up, a little before it.
        let deadline = Int(((began - start) / periodSeconds).rounded())
        let missed = max(0, deadline - lastDeadline - 1)
        let lateness = began - (start + Double(deadline) * periodSeconds)
        if missed > 0 || lateness > Self.latenessTolerance * periodSeconds { statistics.lateTicks += 1 }
        statistics.missedDeadlines += missed
        lastDeadline = deadline
        statistics.ticks += 1

        guard let thigh else {
            try drain(sensor, &shankStream)
            statistics.lostSamples = shankStream.lost
            statistics.samples += fresh.count
            for sample in fresh { deliver(sample, nil) }
            finishTick(began: began)
            return
        }
        // Each drain is timed on its own: the newest sample a FIFO holds is fixed when its count
        // is read, and the second drain starts a few bus milliseconds after the first.
        func handOn(_ pair: SensorPairAligner.Pair) {
            statistics.samples += 1
            deliver(pair.shank, pair.thigh)
        }
        let shankDrained = clock.now
        try drain(sensor, &shankStream)
        statistics.lostSamples = shankStream.lost
        aligner?.add(shank: fresh, thigh: [], drainedAt: shankDrained, deliver: handOn)
        let thighDrained = clock.now
        try drain(thigh, &thighStream)
        statistics.thighSamples += fresh.count
        statistics.thighLostSamples = thighStream.lost
        aligner?.add(shank: [], thigh: fresh, drainedAt: thighDrained, deliver: handOn)
        finishTick(began: began)
    }

    /// Hands on the shank samples still waiting for a thigh sample after their instant, each with
    /// the thigh's last reading: before a procedure is stopped with what it has. Nothing without a
    /// thigh sensor.
    public func finish(_ deliver: (IMUSample, IMUSample?) -> Void) {
        aligner?.finish { pair in
            statistics.samples += 1
            deliver(pair.shank, pair.thigh)
        }
    }

    /// Reads one sensor's new samples into `fresh`, each index once.
    private func drain(_ driver: MPU6050, _ stream: inout StreamIndex) throws(MPU6050Error) {
        fresh.removeAll(keepingCapacity: true)
        let gap = try driver.readSamples(into: &buffer)
        if let gap {
            stream.lost += gap.count
            stream.next = gap.startIndex + gap.count
        }
        for sample in buffer {
            // The driver never repeats an index; this guard keeps "exactly once" true regardless.
            guard sample.index >= stream.next else { continue }
            stream.next = sample.index + 1
            fresh.append(sample)
        }
    }

    private func finishTick(began: Double) {
        let took = clock.now - began
        statistics.longestTickSeconds = max(statistics.longestTickSeconds, took)
        if took > periodSeconds { statistics.overruns += 1 }
    }
}

/// Where one sensor's stream stands: the next index to hand on and the samples lost so far.
private struct StreamIndex {
    var next = 0
    var lost = 0
}
