/// A button press the simulator plays: when, for how long, and how much the contacts bounce.
public struct ScriptedPress: Equatable, Sendable {
    /// Nanoseconds after the simulation started (the clock reading when `SimulatedGPIO` was made).
    public let atNanoseconds: UInt64
    /// How long the button is held, in nanoseconds.
    public let holdNanoseconds: UInt64
    /// Extra edge pairs, 1 ms apart, at the start and at the end of the press, as a real switch
    /// makes; the debouncer must see through them.
    public let bounces: Int

    /// - Parameters:
    ///   - atSeconds: Seconds after the simulation started.
    ///   - holdSeconds: Seconds held (default 0.2 s, a short press).
    ///   - bounces: Contact bounces at each end (default none).
    public init(atSeconds: Double, holdSeconds: Double = 0.2, bounces: Int = 0) {
        atNanoseconds = UInt64((max(0, atSeconds) * 1e9).rounded())
        holdNanoseconds = UInt64((max(0, holdSeconds) * 1e9).rounded())
        self.bounces = max(0, bounces)
    }

    /// The physical edges of an active-low button (pressed = low), in nanoseconds after the
    /// simulation start: each end is a burst of `bounces` edge pairs, then the settling edge.
    public var edges: [GPIOEdge] {
        let bounceStep: UInt64 = 1_000_000
        var edges: [GPIOEdge] = []
        func burst(at start: UInt64, settle: GPIOEdge.Kind) {
            let other: GPIOEdge.Kind = settle == .falling ? .rising : .falling
            var time = start
            for _ in 0..<bounces {
                edges.append(GPIOEdge(settle, atNanoseconds: time))
                edges.append(GPIOEdge(other, atNanoseconds: time + bounceStep / 2))
                time += bounceStep
            }
            edges.append(GPIOEdge(settle, atNanoseconds: time))
        }
        burst(at: atNanoseconds, settle: .falling)
        burst(at: atNanoseconds + holdNanoseconds, settle: .rising)
        return edges
    }
}
