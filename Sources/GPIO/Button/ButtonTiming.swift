/// How button edges become presses: the debounce interval and the long-press threshold.
public struct ButtonTiming: Equatable, Sendable {
    /// Supported debounce intervals in milliseconds: shorter lets contact bounce through, longer
    /// makes the button feel slow.
    public static let debounceRange: ClosedRange<Int> = 20...50
    /// Supported long-press thresholds in milliseconds.
    public static let longPressRange: ClosedRange<Int> = 500...10_000

    /// 30 ms debounce, long press from 1.5 s.
    public static let standard = ButtonTiming(
        debounceNanoseconds: 30_000_000, longPressNanoseconds: 1_500_000_000)

    /// A level counts once it has been stable this long (nanoseconds).
    public let debounceNanoseconds: UInt64
    /// A press held at least this long (nanoseconds) is a long press.
    public let longPressNanoseconds: UInt64

    /// - Parameters:
    ///   - debounceMilliseconds: In `debounceRange` (default 30).
    ///   - longPressMilliseconds: In `longPressRange` (default 1500).
    /// - Throws: `GPIOError.buttonTiming` naming the value out of range.
    public init(debounceMilliseconds: Int = 30, longPressMilliseconds: Int = 1500) throws(GPIOError) {
        guard Self.debounceRange.contains(debounceMilliseconds) else {
            throw .buttonTiming(name: "debounce", milliseconds: debounceMilliseconds, allowed: Self.debounceRange)
        }
        guard Self.longPressRange.contains(longPressMilliseconds) else {
            throw .buttonTiming(
                name: "long press", milliseconds: longPressMilliseconds, allowed: Self.longPressRange)
        }
        self.init(
            debounceNanoseconds: UInt64(debounceMilliseconds) * 1_000_000,
            longPressNanoseconds: UInt64(longPressMilliseconds) * 1_000_000)
    }

    private init(debounceNanoseconds: UInt64, longPressNanoseconds: UInt64) {
        self.debounceNanoseconds = debounceNanoseconds
        self.longPressNanoseconds = longPressNanoseconds
    }
}
