import LinuxSystem
import Synchronization

/// A simulated GPIO chip for `--simulate` and tests: a button that plays scripted presses on an
/// injected clock, and outputs (LED, buzzer) whose changes are recorded and reported.
///
/// It names its lines like a Raspberry Pi header chip (`GPIO0`…), so configuration and
/// `GPIOLineLocator` work unchanged. Every input line sees the same press script (the appliance
/// has one button); presses can be added while running, e.g. from stdin. An input line is
/// pollable like a kernel line: its descriptor (an alarm of the clock) becomes readable when the
/// clock reaches its next scripted edge.
public final class SimulatedGPIO: GPIOChip, Sendable {
    /// An output level change.
    public struct Change: Equatable, Sendable, CustomStringConvertible {
        /// Nanoseconds after the simulation started.
        public let atNanoseconds: UInt64
        public let line: GPIOLineID
        /// The new level: `true` for high.
        public let value: Bool

        /// `+1.250s GPIO27 on`.
        public var description: String {
            let seconds = Double(atNanoseconds) / 1e9
            let name = line.name ?? "line \(line.offset)"
            let formatted = (seconds * 1000).rounded() / 1000
            return "+\(formatted)s \(name) \(value ? "on" : "off")"
        }
    }

    private struct State {
        var edges: [GPIOEdge] = []
        var changes: [Change] = []
        var requested: Set<UInt32> = []
        /// Per requested input line: how many edges it took, and its alarm.
        var inputs: [UInt32: (taken: Int, alarm: any ClockAlarm)] = [:]
    }

    public let info: GPIOChipInfo
    private let clock: any GPIOClock
    private let startNanoseconds: UInt64
    private let onChange: (@Sendable (Change) -> Void)?
    private let state = Mutex(State())

    /// - Parameters:
    ///   - clock: Time for presses and recorded changes; the start is its reading now.
    ///   - presses: The press script.
    ///   - label: The chip label (default that of a Pi 4's header chip).
    ///   - path: The device path the chip pretends to have.
    ///   - lineCount: Lines `GPIO0`…; 58 as on a BCM2711.
    ///   - onChange: Called with each output change, for the log or a terminal.
    public init(
        clock: any GPIOClock, presses: [ScriptedPress] = [], label: String = "pinctrl-bcm2711",
        path: String = "/dev/gpiochip0", lineCount: UInt32 = 58,
        onChange: (@Sendable (Change) -> Void)? = nil
    ) {
        self.clock = clock
        startNanoseconds = clock.nowNanoseconds
        self.onChange = onChange
        info = GPIOChipInfo(path: path, name: "gpiochip0", label: label, lineCount: lineCount)
        for press in presses {
            schedule(press)
        }
    }

    /// Adds a press to the script; one that starts in the past plays at once.
    public func schedule(_ press: ScriptedPress) {
        let shifted = press.edges.map {
            GPIOEdge($0.kind, atNanoseconds: $0.timestampNanoseconds + startNanoseconds)
        }
        state.withLock { state in
            state.edges.append(contentsOf: shifted)
            state.edges.sort { $0.timestampNanoseconds < $1.timestampNanoseconds }
            for offset in state.inputs.keys {
                Self.rearm(offset, in: &state)
            }
        }
    }

    /// Sets input `offset`'s alarm to its next edge, or clears it when the script has no more.
    private static func rearm(_ offset: UInt32, in state: inout State) {
        guard let input = state.inputs[offset] else { return }
        // An alarm fails only when its descriptor is broken; the line's next read reports that.
        if input.taken < state.edges.count {
            try? input.alarm.set(atNanoseconds: state.edges[input.taken].timestampNanoseconds)
        } else {
            try? input.alarm.clear()
        }
    }

    /// Every output change so far, in order (the initial level of each requested output included).
    public var changes: [Change] {
        state.withLock { $0.changes }
    }

    /// Nanoseconds since the simulation started.
    public var elapsedNanoseconds: UInt64 {
        clock.nowNanoseconds - startNanoseconds
    }

    var nowNanoseconds: UInt64 {
        clock.nowNanoseconds
    }

    public func lineOffset(named name: String) throws(GPIOError) -> UInt32? {
        guard name.hasPrefix("GPIO"), let offset = UInt32(name.dropFirst(4)), offset < info.lineCount,
            name == "GPIO\(offset)"
        else { return nil }
        return offset
    }

    public func requestInput(offset: UInt32, consumer: String) throws(GPIOError) -> any GPIOInputLine {
        let id = try claim(offset, for: .requestInput)
        let alarm: any ClockAlarm
        do {
            alarm = try clock.makeAlarm()
        } catch {
            unclaim(offset)
            throw .line(.requestInput, id, errno: error)
        }
        state.withLock { state in
            state.inputs[offset] = (0, alarm)
            Self.rearm(offset, in: &state)
        }
        return SimulatedInputLine(id: id, chip: self)
    }

    public func requestOutput(offset: UInt32, consumer: String, initialValue: Bool) throws(GPIOError)
        -> any GPIOOutputLine
    {
        let id = try claim(offset, for: .requestOutput)
        let line = SimulatedOutputLine(id: id, chip: self, initialValue: initialValue)
        record(line.id, initialValue)
        return line
    }

    private func claim(_ offset: UInt32, for operation: GPIOError.Operation) throws(GPIOError) -> GPIOLineID {
        guard offset < info.lineCount else {
            throw .offsetOutOfRange(chip: info.path, offset: offset, lineCount: info.lineCount)
        }
        let id = GPIOLineID(chip: info.path, offset: offset, name: "GPIO\(offset)")
        let fresh = state.withLock { $0.requested.insert(offset).inserted }
        guard fresh else {
            throw .line(operation, id, errno: .resourceBusy)
        }
        return id
    }

    func unclaim(_ offset: UInt32) {
        state.withLock { state in
            state.requested.remove(offset)
            state.inputs[offset] = nil
        }
    }

    /// Input `offset`'s alarm descriptor.
    func eventDescriptor(of offset: UInt32) -> CInt? {
        state.withLock { $0.inputs[offset]?.alarm.descriptor }
    }

    /// The edges of input `offset` that are due and not taken yet; takes them.
    func takeDueEdges(of offset: UInt32) -> [GPIOEdge] {
        let now = clock.nowNanoseconds
        return state.withLock { state in
            guard let input = state.inputs[offset] else { return [] }
            let due = state.edges[input.taken...].prefix { $0.timestampNanoseconds <= now }
            state.inputs[offset]?.taken += due.count
            Self.rearm(offset, in: &state)
            return Array(due)
        }
    }

    func record(_ line: GPIOLineID, _ value: Bool) {
        let change = Change(atNanoseconds: elapsedNanoseconds, line: line, value: value)
        state.withLock { $0.changes.append(change) }
        onChange?(change)
    }

    /// The level of the button at `time`: high (released) unless the last edge so far fell.
    func buttonLevel(at time: UInt64) -> Bool {
        state.withLock { state in
            state.edges.last { $0.timestampNanoseconds <= time }?.levelAfter ?? true
        }
    }

    /// Waits for input `offset`'s next edge, as `waitForEdge` does, and takes it.
    func nextEdge(of offset: UInt32, timeoutNanoseconds: UInt64) -> GPIOEdge? {
        let now = clock.nowNanoseconds
        let deadline = now.addingReportingOverflow(timeoutNanoseconds)
        let limit = deadline.overflow ? UInt64.max : deadline.partialValue
        let next = state.withLock { state in
            state.inputs[offset].flatMap { $0.taken < state.edges.count ? state.edges[$0.taken] : nil }
        }
        guard let next, next.timestampNanoseconds <= limit else {
            clock.sleep(untilNanoseconds: limit)
            return nil
        }
        clock.sleep(untilNanoseconds: next.timestampNanoseconds)
        state.withLock { state in
            state.inputs[offset]?.taken += 1
            Self.rearm(offset, in: &state)
        }
        return next
    }
}

/// The simulated button line.
final class SimulatedInputLine: GPIOInputLine {
    let id: GPIOLineID
    private let chip: SimulatedGPIO
    private var released = false

    init(id: GPIOLineID, chip: SimulatedGPIO) {
        self.id = id
        self.chip = chip
    }

    func value() throws(GPIOError) -> Bool {
        guard !released else { throw .line(.readValue, id, errno: .badFileDescriptor) }
        return chip.buttonLevel(at: chip.nowNanoseconds)
    }

    func eventFileDescriptor() throws(GPIOError) -> CInt {
        guard !released, let descriptor = chip.eventDescriptor(of: id.offset) else {
            throw .line(.waitForEdge, id, errno: .badFileDescriptor)
        }
        return descriptor
    }

    func readEdges() throws(GPIOError) -> [GPIOEdge] {
        guard !released else { throw .line(.readEdge, id, errno: .badFileDescriptor) }
        return chip.takeDueEdges(of: id.offset)
    }

    func waitForEdge(timeoutNanoseconds: UInt64) throws(GPIOError) -> GPIOEdge? {
        guard !released else { throw .line(.waitForEdge, id, errno: .badFileDescriptor) }
        return chip.nextEdge(of: id.offset, timeoutNanoseconds: timeoutNanoseconds)
    }

    func release() {
        guard !released else { return }
        released = true
        chip.unclaim(id.offset)
    }
}

/// A simulated output line: each change is recorded on the chip.
final class SimulatedOutputLine: GPIOOutputLine {
    let id: GPIOLineID
    private let chip: SimulatedGPIO
    private var level: Bool
    private var released = false

    init(id: GPIOLineID, chip: SimulatedGPIO, initialValue: Bool) {
        self.id = id
        self.chip = chip
        level = initialValue
    }

    func setValue(_ high: Bool) throws(GPIOError) {
        guard !released else { throw .line(.setValue, id, errno: .badFileDescriptor) }
        guard high != level else { return }
        level = high
        chip.record(id, high)
    }

    func release() {
        guard !released else { return }
        released = true
        chip.unclaim(id.offset)
    }
}
