/// What a sampling loop has done so far: its ticks, how punctual they were, and the samples
/// they delivered.
public struct SamplingStatistics: Hashable, Sendable {
    /// Ticks run.
    public var ticks = 0
    /// Ticks that began more than ``SampleTicker/latenessTolerance`` of a period after their
    /// deadline, or after a deadline with no tick of its own (the host stalled).
    public var lateTicks = 0
    /// Deadlines that passed without a tick: the timer coalesces them into the next tick, which
    /// drains what they would have read.
    public var missedDeadlines = 0
    /// Ticks whose work took longer than one period, so that the next deadline was missed.
    public var overruns = 0
    /// Samples delivered, each once (with a thigh sensor, each shank sample with the thigh's
    /// reading at its instant).
    public var samples = 0
    /// Samples the sensor reported lost (FIFO overflow: the host read too late).
    public var lostSamples = 0
    /// Samples drained from the thigh's sensor, when one is fitted.
    public var thighSamples = 0
    /// Samples the thigh's sensor reported lost; the pairs across its gap are interpolated.
    public var thighLostSamples = 0
    /// The longest time a tick's work took, seconds on the loop's clock.
    public var longestTickSeconds = 0.0

    public init() {}
}
