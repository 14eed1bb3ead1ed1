/// Turns a button line's edge events into debounced presses, using the kernel's timestamps only.
///
/// A level counts once no edge has followed it for the debounce interval; the press then dates
/// from the edge that began that stable level, so host latency never stretches or shortens a
/// press. Events arrive only with edges, so call `advance(toNanoseconds:)` when the wait for the
/// next edge times out at `nextDeadlineNanoseconds` (the moment a level becomes stable or a
/// long press is reached).
///
/// Pure and deterministic: no clock, no I/O. libgpiod v1 has no kernel debounce, so this is the
/// one debounce for both library versions.
public struct ButtonDebouncer: Sendable {
    /// Which physical level means "pressed".
    public enum Polarity: Equatable, Sendable {
        /// Switch to ground with a pull-up: pressed is low (the appliance's wiring).
        case activeLow
        /// Switch to 3.3 V with a pull-down: pressed is high.
        case activeHigh
    }

    public let timing: ButtonTiming
    public let polarity: Polarity

    /// The debounced state.
    public private(set) var isPressed = false
    private var pressStart: UInt64 = 0
    private var longPressReported = false
    /// A level seen but not yet stable: pressed or not, and when its last edge came.
    private var candidate: (pressed: Bool, since: UInt64)?

    public init(timing: ButtonTiming = .standard, polarity: Polarity = .activeLow) {
        self.timing = timing
        self.polarity = polarity
    }

    /// When `advance(toNanoseconds:)` may next report something, or `nil` if only an edge can.
    public var nextDeadlineNanoseconds: UInt64? {
        if let candidate {
            return candidate.since + timing.debounceNanoseconds
        }
        if isPressed && !longPressReported {
            return pressStart + timing.longPressNanoseconds
        }
        return nil
    }

    /// Takes one edge; returns what became certain up to and including it.
    ///
    /// Edges must come in timestamp order (the kernel's queue is); an earlier timestamp is taken
    /// as equal to the previous one.
    public mutating func handle(_ edge: GPIOEdge) -> [ButtonEvent] {
        let time = max(edge.timestampNanoseconds, candidate?.since ?? 0)
        var events = advance(toNanoseconds: time)
        let pressed = (edge.levelAfter == (polarity == .activeHigh))
        if pressed == isPressed {
            // Bounced back (or a repeated edge) before the other level became stable.
            candidate = nil
        } else {
            // Stability is measured from the latest edge: an edge means the level moved.
            candidate = (pressed, time)
        }
        if candidate == nil, let more = longPress(at: time) {
            events.append(more)
        }
        return events
    }

    /// Reports what became certain by `now` without a new edge.
    public mutating func advance(toNanoseconds now: UInt64) -> [ButtonEvent] {
        var events: [ButtonEvent] = []
        if let candidate, now >= candidate.since + timing.debounceNanoseconds {
            self.candidate = nil
            isPressed = candidate.pressed
            if candidate.pressed {
                pressStart = candidate.since
                longPressReported = false
                events.append(.pressed(atNanoseconds: candidate.since))
            } else {
                let duration = candidate.since - pressStart
                let kind: ButtonPress.Kind = duration >= timing.longPressNanoseconds ? .long : .short
                events.append(
                    .released(ButtonPress(startNanoseconds: pressStart, endNanoseconds: candidate.since, kind: kind)))
            }
        }
        if let more = longPress(at: now) {
            events.append(more)
        }
        return events
    }

    private mutating func longPress(at now: UInt64) -> ButtonEvent? {
        // While a release is pending the press may already be over; wait until it is certain.
        guard isPressed, !longPressReported, candidate == nil,
            now >= pressStart + timing.longPressNanoseconds
        else { return nil }
        longPressReported = true
        return .longPressReached(atNanoseconds: pressStart + timing.longPressNanoseconds)
    }
}
