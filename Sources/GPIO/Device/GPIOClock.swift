import LinuxSystem
import Synchronization

/// The time base of button edges, cues and the simulator: nanoseconds on `CLOCK_MONOTONIC`, the
/// clock the kernel stamps GPIO edge events with.
///
/// Injected so tests and the simulator can run faster than real time (`ManualGPIOClock`).
public protocol GPIOClock: AnyObject, Sendable {
    /// Nanoseconds since an arbitrary fixed point; never decreases.
    var nowNanoseconds: UInt64 { get }

    /// Blocks (a manual clock: jumps) until `nowNanoseconds` has reached `deadline`.
    func sleep(untilNanoseconds deadline: UInt64)

    /// A descriptor that becomes readable when this clock reaches a time: how a ``Poll`` wait
    /// ends at a deadline of this clock, and how a simulated device becomes pollable.
    func makeAlarm() throws(Errno) -> any ClockAlarm

    /// Blocks until one of `descriptors` is ready; a manual clock jumps to its earliest alarm
    /// instead of waiting (and returns with nothing ready when no alarm is set, as nothing could
    /// ever become ready).
    func waitUntilReady(_ descriptors: inout [PollDescriptor]) throws(Errno)
}

extension GPIOClock {
    /// Real time passes by itself: `poll(2)` without a time-out, the alarms among the
    /// descriptors bounding the wait.
    public func waitUntilReady(_ descriptors: inout [PollDescriptor]) throws(Errno) {
        try Poll.wait(&descriptors, timeoutNanoseconds: nil)
    }
}

/// A one-shot alarm of a ``GPIOClock``.
public protocol ClockAlarm: AnyObject, Sendable {
    /// Readable from the alarm's time until it is set again or cleared; owned by the alarm.
    var descriptor: CInt { get }

    /// Makes the descriptor readable when the clock reaches `deadline` (at once when it has),
    /// and not readable before; replaces an earlier setting.
    func set(atNanoseconds deadline: UInt64) throws(Errno)

    /// Disarms the alarm; the descriptor is not readable until it is set again.
    func clear() throws(Errno)
}

/// An alarm on `CLOCK_MONOTONIC`, or on a clock running `rate` times faster from the same
/// origin reading: a ``TimerFD``.
public final class MonotonicAlarm: ClockAlarm {
    private let timer: TimerFD
    private let clock: any GPIOClock
    private let rate: Double

    /// - Parameters:
    ///   - clock: The clock whose times ``set(atNanoseconds:)`` takes.
    ///   - rate: Its nanoseconds per `CLOCK_MONOTONIC` nanosecond (1 for the host's clock).
    public init(clock: any GPIOClock, rate: Double = 1) throws(Errno) {
        timer = try TimerFD()
        self.clock = clock
        self.rate = rate
    }

    public var descriptor: CInt { timer.descriptor }

    public func set(atNanoseconds deadline: UInt64) throws(Errno) {
        if rate == 1, clock is SystemGPIOClock {
            try timer.arm(atNanoseconds: deadline)
            return
        }
        let now = clock.nowNanoseconds
        let remaining = Double(deadline - min(deadline, now)) / rate
        try timer.arm(afterNanoseconds: UInt64(remaining.rounded(.up)))
    }

    public func clear() throws(Errno) {
        try timer.disarm()
    }
}

/// The host's `CLOCK_MONOTONIC`.
public final class SystemGPIOClock: GPIOClock {
    public init() {}

    public var nowNanoseconds: UInt64 {
        MonotonicTime.nowNanoseconds
    }

    public func makeAlarm() throws(Errno) -> any ClockAlarm {
        try MonotonicAlarm(clock: self)
    }

    /// Sleeps through signals: the deadline is absolute.
    public func sleep(untilNanoseconds deadline: UInt64) {
        MonotonicTime.sleep(untilNanoseconds: deadline)
    }
}

/// A clock that moves only when told to: sleeping jumps to the deadline at once, and a wait
/// jumps to the earliest alarm, so tests run days of the daemon's event loop in moments and
/// exactly the same way every time.
public final class ManualGPIOClock: GPIOClock {
    private struct State {
        var now: UInt64
        /// The set alarms: when each fires and its event descriptor.
        var alarms: [ObjectIdentifier: (deadline: UInt64, event: EventFD)] = [:]
    }

    private let state: Mutex<State>

    /// - Parameter startNanoseconds: The first reading.
    public init(startNanoseconds: UInt64 = 0) {
        state = Mutex(State(now: startNanoseconds))
    }

    public var nowNanoseconds: UInt64 {
        state.withLock { $0.now }
    }

    public func sleep(untilNanoseconds deadline: UInt64) {
        move { $0 = max($0, deadline) }
    }

    /// Moves time forward by `nanoseconds`.
    public func advance(byNanoseconds nanoseconds: UInt64) {
        move { $0 += nanoseconds }
    }

    public func makeAlarm() throws(Errno) -> any ClockAlarm {
        try ManualAlarm(clock: self)
    }

    public func waitUntilReady(_ descriptors: inout [PollDescriptor]) throws(Errno) {
        while try Poll.wait(&descriptors, timeoutNanoseconds: 0) == 0 {
            guard let next = state.withLock({ $0.alarms.values.map(\.deadline).min() }) else { return }
            sleep(untilNanoseconds: next)
        }
    }

    /// Changes the time with `change`, then fires the alarms it reached.
    private func move(_ change: (inout UInt64) -> Void) {
        let due = state.withLock { state in
            change(&state.now)
            let now = state.now
            let due = state.alarms.filter { $0.value.deadline <= now }
            for key in due.keys {
                state.alarms[key] = nil
            }
            return due.values.map(\.event)
        }
        for event in due {
            // An eventfd write fails only on a counter at its maximum, which reads as readable.
            try? event.signal()
        }
    }

    fileprivate func set(_ alarm: ManualAlarm, atNanoseconds deadline: UInt64) throws(Errno) {
        try alarm.event.reset()
        let fireNow = state.withLock { state in
            state.alarms[ObjectIdentifier(alarm)] = nil
            guard deadline > state.now else { return true }
            state.alarms[ObjectIdentifier(alarm)] = (deadline, alarm.event)
            return false
        }
        if fireNow { try alarm.event.signal() }
    }

    fileprivate func clear(_ alarm: ManualAlarm) throws(Errno) {
        _ = state.withLock { $0.alarms.removeValue(forKey: ObjectIdentifier(alarm)) }
        try alarm.event.reset()
    }
}

/// An alarm of a ``ManualGPIOClock``: an ``EventFD`` the clock signals when it reaches the time.
/// Unchecked: `clock` is written once, in `init`.
private final class ManualAlarm: ClockAlarm, @unchecked Sendable {
    let event: EventFD
    private weak var clock: ManualGPIOClock?

    init(clock: ManualGPIOClock) throws(Errno) {
        event = try EventFD()
        self.clock = clock
    }

    deinit {
        try? clock?.clear(self)
    }

    var descriptor: CInt { event.descriptor }

    func set(atNanoseconds deadline: UInt64) throws(Errno) {
        try clock?.set(self, atNanoseconds: deadline)
    }

    func clear() throws(Errno) {
        try clock?.clear(self)
    }
}
