import Sensor

/// Why a ``RangeOfMotionMeasurement`` ended without a result.
public enum MeasurementError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sensor failed mid-session (a bus error, a stalled or overrun FIFO); the samples taken
    /// before it are discarded.
    case sensor(MPU6050Error, afterSamples: Int)
    /// ``RangeOfMotionMeasurement/abort()`` was called.
    case aborted
    /// The session ended (stopped) before the sensor delivered a sample.
    case noSamples

    public var description: String {
        switch self {
        case let .sensor(error, samples): "the sensor failed after \(samples) samples: \(error)"
        case .aborted: "the measurement was aborted"
        case .noSamples: "the measurement ended before the sensor delivered a sample"
        }
    }
}
