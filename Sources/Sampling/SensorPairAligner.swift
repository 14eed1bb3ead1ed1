import Sensor

/// Pairs the samples of two sensors on one bus, the shank's and the thigh's, sample for sample.
///
/// Each sensor samples on its own oscillator: two parts configured alike differ by up to a percent
/// or two, two to four samples a second at 200 Hz, so pairing by index would drift apart within a
/// second. Each sensor's sample clock is therefore placed on the host's by a straight-line fit of
/// the host times of its drains against the newest sample index drained
/// (``SampleClockFit``), and every shank sample is paired with the thigh's reading at the same
/// host instant, interpolated between the two thigh samples around it.
///
/// Every shank sample is delivered exactly once, in index order, and only when a thigh sample at or
/// after its instant has arrived: a thigh FIFO that stalls holds the shank's samples back rather
/// than losing them, and one that overflowed is interpolated across its gap. ``finish(_:)``
/// delivers the rest against the last thigh sample. Pure and not thread-safe: the sampling tick
/// owns it.
public struct SensorPairAligner {
    /// One shank sample and the thigh's reading at its instant; the thigh sample carries the
    /// shank's index and time.
    public struct Pair: Equatable, Sendable {
        public var shank: IMUSample
        public var thigh: IMUSample
    }

    private var shankClock: SampleClockFit
    private var thighClock: SampleClockFit
    /// Shank samples not yet delivered, oldest first, from `pendingStart`.
    private var pending: [IMUSample] = []
    private var pendingStart = 0
    /// Thigh samples from the one before the oldest pending shank sample's instant on.
    private var thigh: [IMUSample] = []

    /// - Parameter nominalPeriod: The configured sample period in seconds, both sensors; used
    ///   until the drains have spanned enough samples to measure each sensor's own.
    public init(nominalPeriod: Double) {
        shankClock = SampleClockFit(nominalPeriod: nominalPeriod)
        thighClock = SampleClockFit(nominalPeriod: nominalPeriod)
    }

    /// Takes what one tick drained from both FIFOs at `hostTime` (seconds, monotonic) and delivers
    /// every pair that can now be formed.
    public mutating func add(
        shank newShank: [IMUSample], thigh newThigh: [IMUSample], drainedAt hostTime: Double,
        deliver: (Pair) -> Void
    ) {
        if let last = newShank.last { shankClock.add(index: last.index, hostTime: hostTime) }
        if let last = newThigh.last { thighClock.add(index: last.index, hostTime: hostTime) }
        pending.append(contentsOf: newShank)
        thigh.append(contentsOf: newThigh)
        deliverReady(deliver, flushing: false)
    }

    /// Delivers the shank samples still waiting, each against the thigh readings there are (the
    /// last one past the end): the end of a session.
    public mutating func finish(_ deliver: (Pair) -> Void) {
        deliverReady(deliver, flushing: true)
    }

    private mutating func deliverReady(_ deliver: (Pair) -> Void, flushing: Bool) {
        guard let newestThigh = thigh.last else {
            guard flushing else { return }
            // Without any thigh reading there is nothing to pair with; the samples are dropped
            // together with the session that lacked its second sensor.
            pending.removeAll()
            pendingStart = 0
            return
        }
        var searchFrom = 0
        while pendingStart < pending.count {
            let sample = pending[pendingStart]
            let instant = shankClock.hostTime(ofIndex: Double(sample.index))
            let thighIndex = thighClock.index(atHostTime: instant)
            guard flushing || Double(newestThigh.index) >= thighIndex else { break }
            // The last thigh sample at or before the instant, then its successor if any.
            while searchFrom + 1 < thigh.count, Double(thigh[searchFrom + 1].index) <= thighIndex { searchFrom += 1 }
            let before = thigh[searchFrom]
            let after = searchFrom + 1 < thigh.count ? thigh[searchFrom + 1] : before
            let span = Double(after.index - before.index)
            let weight = span > 0 ? min(1, max(0, (thighIndex - Double(before.index)) / span)) : 0
            var reading = before
            reading.index = sample.index
            reading.timeSeconds = sample.timeSeconds
            reading.accelerationG = before.accelerationG + (after.accelerationG - before.accelerationG) * weight
            reading.angularRateDPS = before.angularRateDPS + (after.angularRateDPS - before.angularRateDPS) * weight
            deliver(Pair(shank: sample, thigh: reading))
            pendingStart += 1
        }
        // Keep storage from growing: drop what every later pairing has passed.
        if pendingStart > 256 || pendingStart == pending.count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        if searchFrom > 0 { thigh.removeFirst(searchFrom) }
    }
}

/// A sensor's sample clock on the host's: host time ≈ origin + period × index, fitted by least
/// squares to the host time of each drain and the newest index it returned.
///
/// The newest sample of a drain was taken up to one period before the drain, a delay that is
/// the same on average for both sensors and cancels when their clocks are compared; the host's
/// scheduling jitter averages out over the drains of a session.
public struct SampleClockFit: Sendable {
    public let nominalPeriod: Double
    private var count = 0.0
    private var firstIndex: Int?
    // Sums over the drains of x = index − firstIndex and y = host time − firstTime.
    private var firstTime = 0.0
    private var sumX = 0.0, sumY = 0.0, sumXX = 0.0, sumXY = 0.0

    /// Indices a fit must span before its own period replaces the nominal one: one second at
    /// 200 Hz, over which host jitter of a few milliseconds is a fraction of a percent.
    public static let minimumSpan = 200.0

    public init(nominalPeriod: Double) {
        self.nominalPeriod = nominalPeriod
    }

    public mutating func add(index: Int, hostTime: Double) {
        let first = firstIndex ?? index
        if firstIndex == nil {
            firstIndex = index
            firstTime = hostTime
        }
        let x = Double(index - first), y = hostTime - firstTime
        count += 1
        sumX += x
        sumY += y
        sumXX += x * x
        sumXY += x * y
    }

    /// The fitted period, or the nominal one until the drains span ``minimumSpan`` indices.
    public var period: Double {
        guard count >= 2 else { return nominalPeriod }
        let meanX = sumX / count
        let varianceX = sumXX / count - meanX * meanX
        guard varianceX * 12 >= Self.minimumSpan * Self.minimumSpan else { return nominalPeriod }
        return (sumXY / count - meanX * sumY / count) / varianceX
    }

    /// Host time of a (fractional) sample index.
    public func hostTime(ofIndex index: Double) -> Double {
        guard let firstIndex, count > 0 else { return index * nominalPeriod }
        let slope = period
        // The line through the drains' centroid with the slope in use.
        let origin = sumY / count - slope * sumX / count
        return firstTime + origin + slope * (index - Double(firstIndex))
    }

    /// The (fractional) sample index at a host time.
    public func index(atHostTime time: Double) -> Double {
        guard let firstIndex, count > 0 else { return time / nominalPeriod }
        let slope = period
        let origin = sumY / count - slope * sumX / count
        return Double(firstIndex) + (time - firstTime - origin) / slope
    }
}
