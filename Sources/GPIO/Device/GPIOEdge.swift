/// A level change on an input line, as the kernel reported it.
public struct GPIOEdge: Equatable, Sendable {
    /// Rising (low to high) or falling (high to low), in physical levels.
    public enum Kind: Equatable, Sendable {
        case rising
        case falling
    }

    public let kind: Kind
    /// The kernel's timestamp of the edge in nanoseconds on `CLOCK_MONOTONIC` (kernel ≥ 5.7), the
    /// same time base as `SystemGPIOClock`.
    public let timestampNanoseconds: UInt64

    public init(_ kind: Kind, atNanoseconds timestampNanoseconds: UInt64) {
        self.kind = kind
        self.timestampNanoseconds = timestampNanoseconds
    }

    /// The physical level after the edge: `true` for high.
    public var levelAfter: Bool {
        kind == .rising
    }
}
