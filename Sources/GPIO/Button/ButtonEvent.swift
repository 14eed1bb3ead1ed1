/// A completed press: from the first edge of the stable "down" level to the first edge of the
/// stable "up" level, in the kernel's timestamps.
public struct ButtonPress: Equatable, Sendable {
    /// Short presses start a session; long presses (≥ the long-press threshold) are for other
    /// actions, e.g. cancelling.
    public enum Kind: Equatable, Sendable {
        case short
        case long
    }

    public let startNanoseconds: UInt64
    public let endNanoseconds: UInt64
    public let kind: Kind

    public init(startNanoseconds: UInt64, endNanoseconds: UInt64, kind: Kind) {
        self.startNanoseconds = startNanoseconds
        self.endNanoseconds = endNanoseconds
        self.kind = kind
    }

    public var durationNanoseconds: UInt64 {
        endNanoseconds - startNanoseconds
    }
}

/// What the debouncer reports.
public enum ButtonEvent: Equatable, Sendable {
    /// The button went down (debounced); the time is that of the first edge of the stable level.
    case pressed(atNanoseconds: UInt64)
    /// The button has been held for the long-press threshold and is still down, so a cue can
    /// confirm the long press before release. The time is press start + threshold.
    case longPressReached(atNanoseconds: UInt64)
    /// The button came up (debounced).
    case released(ButtonPress)
}
