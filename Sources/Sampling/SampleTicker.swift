import Fusion
import Sensor

/// The work of one sampling tick, apart from whatever schedules the ticks: drain the sensor's
/// FIFO into a buffer kept from tick to tick and hand each new sample on once, with its time on
/// the sensor's sample clock (sample index / configured rate), never the host's.
///
/// Deadlines are `start + n × period` on the injected monotonic clock, `start` being the first
/// tick, and each tick is counted against the nearest one; the ticker only observes them (``SamplingStatistics``), it never sleeps. `SamplingLoop`
/// runs it from a strict Dispatch timer, tests call ``tick(_:)`` after advancing a `ManualClock`.
/// Not thread-safe: one owner calls it (the loop's serial queue).
public final class SampleTicker {
    /// The configured sensor read on every tick.
    public let sensor: MPU6050
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
    private var nextIndex = 0

    /// - Parameters:
    ///   - sensor: Configured (`configure(_:)` done) and owned by the ticker from now on.
    ///   - periodSeconds: Seconds between ticks; the FIFO must not fill within one (0.43 s at
    ///     200 Hz), so a tick drains a handful of samples.
    ///   - clock: The monotonic clock the driver and the deadlines use.
    public init(sensor: MPU6050, periodSeconds: Double, clock: any MonotonicClock) {
        precondition(periodSeconds > 0, "a sampling period must be positive")
        self.sensor = sensor
        self.periodSeconds = periodSeconds
        self.clock = clock
        let rate = Double(sensor.configuration?.sampleRateHz ?? 1000)
        // Room for a full FIFO after a stall, so draining never grows the buffer.
        buffer.reserveCapacity(max(128, Int((rate * periodSeconds).rounded(.up)) * 4))
    }

    /// Runs one tick: reads every sample the sensor produced since the last tick and calls
    /// `deliver` with each, in index order.
    /// - Throws: `MPU6050Error` from the driver (the samples decoded before the failure are
    ///   delivered by the next tick, if there is one).
    public func tick(_ deliver: (IMUSample) -> Void) throws(MPU6050Error) {
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

        let gap = try sensor.readSamples(into: &buffer)
        if let gap {
            statistics.lostSamples += gap.count
            nextIndex = gap.startIndex + gap.count
        }
        for sample in buffer {
            // The driver never repeats an index; this guard keeps "exactly once" true regardless.
            guard sample.index >= nextIndex else { continue }
            nextIndex = sample.index + 1
            statistics.samples += 1
            deliver(sample)
        }

        let took = clock.now - began
        statistics.longestTickSeconds = max(statistics.longestTickSeconds, took)
        if took > periodSeconds { statistics.overruns += 1 }
    }
}
