#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A signal the ``LowPassFilter`` can smooth: anything that adds and scales linearly.
public protocol LowPassSignal: Sendable {
    static var zero: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, s: Double) -> Self
}

extension Double: LowPassSignal {}
extension Vector3: LowPassSignal {}
extension Matrix3: LowPassSignal {}

/// Coefficients of a second-order Butterworth low-pass for one sample interval.
///
/// The filter is described by a time constant τ rather than a cut-off: the cut-off is
/// `√2 / (2π τ)`, whose step response settles about as a first-order low-pass with time constant τ
/// does, while the second order suppresses faster signals (tremor, impacts) much more strongly.
/// Discretised by the bilinear transform with the cut-off pre-warped, so the response does not
/// depend on the sample rate.
public struct LowPassCoefficients: Hashable, Sendable {
    public let timeConstant: Double
    public let interval: Double
    let b0: Double, b1: Double, b2: Double, a1: Double, a2: Double

    /// - Parameters:
    ///   - timeConstant: τ, seconds; 0 makes the filter pass its input unchanged.
    ///   - interval: the sample interval, seconds (> 0).
    public init(timeConstant: Double, interval: Double) {
        self.timeConstant = timeConstant
        self.interval = interval
        guard timeConstant > 0, interval > 0 else {
            (b0, b1, b2, a1, a2) = (1, 0, 0, 0, 0)
            return
        }
        let cutoff = 2.0.squareRoot() / (2 * Double.pi * timeConstant)
        // Above Nyquist the pre-warped tangent is undefined; such a short τ is no filtering at all.
        guard cutoff * interval < 0.45 else {
            (b0, b1, b2, a1, a2) = (1, 0, 0, 0, 0)
            return
        }
        let k = tan(Double.pi * cutoff * interval)
        let k2 = k * k
        let root2k = 2.0.squareRoot() * k
        let norm = 1 / (1 + root2k + k2)
        b0 = k2 * norm
        b1 = 2 * b0
        b2 = b0
        a1 = 2 * (k2 - 1) * norm
        a2 = (1 - root2k + k2) * norm
    }
}

/// The state of a second-order low-pass over one signal (transposed direct form II).
///
/// Started cold, a low-pass would take τ to forget its zero state. Instead, for the first τ seconds
/// the output is the running mean of the input, and the filter then starts in the steady state of
/// that mean: the start pose is the average of the first samples, not of zeros.
public struct LowPassFilter<Signal: LowPassSignal>: Sendable {
    private var s1 = Signal.zero
    private var s2 = Signal.zero
    private var sum = Signal.zero
    private var count = 0
    private var averagedSeconds = 0.0
    private var isRunning = false
    /// The last output.
    public private(set) var value = Signal.zero

    public init() {}

    /// Feeds one sample; returns the filtered value.
    public mutating func update(_ input: Signal, _ c: LowPassCoefficients) -> Signal {
        guard isRunning else { return average(input, c) }
        let output = input * c.b0 + s1
        s1 = input * c.b1 - output * c.a1 + s2
        s2 = input * c.b2 - output * c.a2
        value = output
        return output
    }

    private mutating func average(_ input: Signal, _ c: LowPassCoefficients) -> Signal {
        sum = sum + input
        count += 1
        averagedSeconds += c.interval
        let mean = sum * (1 / Double(count))
        if averagedSeconds >= c.timeConstant { reset(to: mean, c) }
        value = mean
        return mean
    }

    /// Puts the filter in the steady state of a constant input `steady`.
    public mutating func reset(to steady: Signal, _ c: LowPassCoefficients) {
        s2 = steady * (c.b2 - c.a2)
        s1 = steady * (c.b1 - c.a1) + s2
        value = steady
        isRunning = true
    }
}

/// A value computed for one sample interval, such as filter coefficients.
protocol SampleIntervalDependent {
    var interval: Double { get }
}

extension SampleIntervalDependent {
    /// The cached value while `interval` stays within 1 % of the one it was made for, else a new one
    /// from `make`, cached: sensor clocks give a constant interval, recordings one that varies by
    /// rounding, so the value is recomputed only when the rate really changes.
    static func cached(_ cache: inout Self?, interval: Double, _ make: () -> Self) -> Self {
        if let value = cache, abs(value.interval - interval) <= 0.01 * value.interval { return value }
        let value = make()
        cache = value
        return value
    }
}

extension LowPassCoefficients: SampleIntervalDependent {}
