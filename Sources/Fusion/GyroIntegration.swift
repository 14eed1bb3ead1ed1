/// How far the gyro turned the sensor over one sample interval, lost samples included.
///
/// A gyro sample is the mean rate over the sensor period it ends. When samples were lost (a FIFO
/// overflow, a dropped row), the interval spans several periods, and over the lost ones the best
/// guess is a rate changing linearly from the sample before them to the one after. Taking the later
/// sample's rate for the whole gap instead would turn a leg accelerating at 1000 °/s² by a further
/// 11° over 0.15 s.
enum GyroIntegration {
    /// How many sample periods an interval must span to hold lost samples. The sensor stamps its
    /// samples on its own clock, so the host's timing never stretches an interval; a recording
    /// stamped by a host may vary by a period or so, and a single lost sample, which doubles the
    /// interval, costs the plain integral little.
    static let gapFactor = 2.5

    /// The sensor's sample period, seconds, from the times of its samples: the shortest interval
    /// between two consecutive ones; 0 for fewer than two.
    static func period(ofTimes times: some Collection<Double>) -> Double {
        zip(times.dropFirst(), times).map { $0 - $1 }.filter { $0 > 0 }.min() ?? 0
    }

    /// Whether `interval` holds lost samples of a sensor sampling every `period` seconds.
    static func isGap(interval: Double, period: Double) -> Bool { interval > gapFactor * period }

    /// The rate integrated over `interval` seconds ending at a sample reading `rate` (°/s, or any
    /// component of it), the previous sample having read `previous`.
    static func turn<Rate: LowPassSignal>(_ rate: Rate, previous: Rate?, interval: Double, period: Double) -> Rate {
        guard isGap(interval: interval, period: period), let previous else { return rate * interval }
        return rate * period + (previous + rate) * ((interval - period) / 2)
    }
}
