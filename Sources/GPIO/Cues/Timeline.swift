/// A level over time: a list of steps, played once (then `rest` forever) or repeated.
///
/// The LED patterns and buzzer chimes are timelines, so what the appliance shows at any moment is
/// a pure function of the time since the cue started, tested without a clock.
public struct Timeline<Level: Equatable & Sendable>: Equatable, Sendable {
    /// One level held for a duration in nanoseconds.
    public struct Step: Equatable, Sendable {
        public let level: Level
        public let durationNanoseconds: UInt64

        public init(_ level: Level, milliseconds: UInt64) {
            self.level = level
            durationNanoseconds = milliseconds * 1_000_000
        }
    }

    public let steps: [Step]
    /// Whether the steps repeat forever.
    public let repeats: Bool
    /// The level after a one-shot timeline has ended (and of an empty timeline).
    public let rest: Level
    /// The length of one pass through the steps, in nanoseconds.
    public let cycleNanoseconds: UInt64

    /// - Precondition: A repeating timeline has a non-zero length.
    public init(_ steps: [Step], repeats: Bool, rest: Level) {
        let cycle = steps.reduce(0) { $0 + $1.durationNanoseconds }
        precondition(!repeats || cycle > 0, "a repeating timeline needs a non-zero length")
        self.steps = steps
        self.repeats = repeats
        self.rest = rest
        cycleNanoseconds = cycle
    }

    /// A timeline that holds one level forever.
    public static func constant(_ level: Level) -> Timeline {
        Timeline([], repeats: false, rest: level)
    }

    /// Whether a one-shot timeline has played to its end by `elapsed` (never for a repeating one).
    public func isFinished(atNanoseconds elapsed: UInt64) -> Bool {
        !repeats && elapsed >= cycleNanoseconds
    }

    /// The level `elapsed` nanoseconds after the start. Each step covers [start, start + duration).
    public func level(atNanoseconds elapsed: UInt64) -> Level {
        guard let (index, _) = position(elapsed) else { return rest }
        return steps[index].level
    }

    /// The first time after `elapsed` (strictly later) at which the level changes, or `nil` if it
    /// never changes again.
    public func nextChange(afterNanoseconds elapsed: UInt64) -> UInt64? {
        guard let (index, stepEnd) = position(elapsed) else { return nil }
        let current = steps[index].level
        var time = stepEnd
        // At most one full cycle: if nothing differs in a cycle, nothing ever will.
        for offset in 1...steps.count {
            let next = index + offset
            if next >= steps.count && !repeats {
                return rest == current ? nil : time
            }
            let step = steps[next % steps.count]
            if step.level != current {
                return time
            }
            time += step.durationNanoseconds
        }
        return nil
    }

    /// The step playing at `elapsed` and the absolute time it ends, or `nil` after a one-shot end.
    private func position(_ elapsed: UInt64) -> (Int, UInt64)? {
        guard !isFinished(atNanoseconds: elapsed), cycleNanoseconds > 0 else { return nil }
        let cycleStart = elapsed - elapsed % cycleNanoseconds
        var end = cycleStart
        for (index, step) in steps.enumerated() {
            end += step.durationNanoseconds
            if elapsed < end {
                return (index, end)
            }
        }
        return nil
    }
}
