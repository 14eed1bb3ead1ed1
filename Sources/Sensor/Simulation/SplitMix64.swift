/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator whose stream is fixed by its seed
/// on every platform and Swift version, so `--seed N` replays a simulated session exactly.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; equal states give equal streams.
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), from the top 53 bits (not `Double.random(in:)`, whose algorithm the
    /// standard library may change).
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Standard normal (Box–Muller, cosine branch only).
    public mutating func nextGaussian() -> Double {
        let u1 = 1 - nextUnit()  // (0, 1]: keeps log finite
        let u2 = nextUnit()
        return (-2 * _log(u1)).squareRoot() * _cos(2 * .pi * u2)
    }
}
