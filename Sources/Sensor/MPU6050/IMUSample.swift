/// One decoded measurement in the board's axes.
public struct IMUSample: Equatable, Sendable {
    /// Position on the sensor's sample clock: sample `index` was taken `index` sample periods after
    /// sampling started. Gaps (FIFO overflow) skip indices; an index is never delivered twice.
    public var index: Int
    /// `index / sampleRateHz`, in seconds on the sensor's clock (nominal rate; ±1 % with the PLL).
    public var timeSeconds: Double
    /// Specific force in g (at rest: 1 g pointing up, away from the earth).
    public var accelerationG: SIMD3<Double>
    /// Angular rate in °/s, right-handed about each board axis.
    public var angularRateDPS: SIMD3<Double>
    /// Die temperature in °C. In FIFO mode it is read once per FIFO read and shared by that batch.
    public var temperatureCelsius: Double

    public init(
        index: Int, timeSeconds: Double, accelerationG: SIMD3<Double>, angularRateDPS: SIMD3<Double>,
        temperatureCelsius: Double
    ) {
        self.index = index
        self.timeSeconds = timeSeconds
        self.accelerationG = accelerationG
        self.angularRateDPS = angularRateDPS
        self.temperatureCelsius = temperatureCelsius
    }
}

/// Samples lost to a FIFO overflow: indices `startIndex ..< startIndex + count`.
public struct SampleGap: Equatable, Sendable {
    /// Index of the first lost sample.
    public var startIndex: Int
    /// How many samples were lost (estimated from the host clock, to within one).
    public var count: Int

    public init(startIndex: Int, count: Int) {
        self.startIndex = startIndex
        self.count = count
    }
}

/// What one read of the sensor delivered: new samples in index order, and the gap an overflow left
/// before them, if any.
public struct SampleBatch: Equatable, Sendable {
    /// New samples, indices increasing.
    public var samples: [IMUSample]
    /// Samples lost just before `samples`, if the FIFO overflowed.
    public var gap: SampleGap?

    public init(samples: [IMUSample], gap: SampleGap? = nil) {
        self.samples = samples
        self.gap = gap
    }
}
