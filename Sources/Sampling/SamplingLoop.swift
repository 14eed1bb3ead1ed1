import Dispatch
import Sensor
import Synchronization

/// Runs a tick body at a fixed rate on its own serial queue until the body says it is done,
/// it throws, or ``cancel()`` is called.
///
/// Pacing:
/// - ``Pacing/dispatchTimer``: a `DispatchSourceTimer` created with the `.strict` flag (no
///   coalescing with other timers) and no leeway. Its deadlines are on `DispatchTime`, the
///   monotonic clock (`CLOCK_MONOTONIC` on Linux), fixed from the start, so they do not drift with
///   the time a tick takes; deadlines missed during a host stall are folded into one late tick.
/// - ``Pacing/sleeping(_:)``: one tick per period slept on a given clock. With a `ManualClock`
///   (whose sleep only advances it) a session runs as fast as the host can compute it: tests and
///   the simulator faster than real time.
///
/// Threading: ``start(tick:completion:)`` may be called once, from any thread. The tick body and
/// the completion run on the loop's queue, never concurrently with each other. ``cancel()`` may
/// be called from any thread, including from the tick body; the loop ends before its next tick
/// and the completion still runs once.
public final class SamplingLoop: Sendable {
    /// How ticks are scheduled.
    public enum Pacing: @unchecked Sendable {
        /// A strict Dispatch timer on the monotonic clock: the hardware and `--simulate`.
        case dispatchTimer
        /// Sleep one period on this clock before each tick (the clock must be used by nobody
        /// else while the loop runs): faster than real time with a `ManualClock`.
        case sleeping(any MonotonicClock)
    }

    /// What the tick body tells the loop.
    public enum Next: Sendable {
        case `continue`
        case finish
    }

    /// Seconds between ticks.
    public let periodSeconds: Double
    public let pacing: Pacing
    private let queue: DispatchQueue
    private let state = Mutex(State())

    private struct State {
        var started = false
        var cancelled = false
        var timer: TimerSource?
    }

    /// Dispatch sources are thread-safe objects; the SDK just does not say so to the compiler.
    private struct TimerSource: @unchecked Sendable {
        let timer: any DispatchSourceTimer
    }

    /// - Parameters:
    ///   - periodSeconds: Seconds between ticks, more than 0.
    ///   - label: The queue's label, for debuggers and crash reports.
    public init(periodSeconds: Double, pacing: Pacing, label: String = "romdev.sampling") {
        precondition(periodSeconds > 0, "a sampling period must be positive")
        self.periodSeconds = periodSeconds
        self.pacing = pacing
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    /// Starts ticking. The first tick comes one period from now.
    /// - Parameters:
    ///   - tick: The work of one tick; returns whether to go on. A throw ends the loop.
    ///   - completion: Called once when the loop has ended: with nil after `.finish` or
    ///     ``cancel()``, with the error the tick threw otherwise.
    public func start(
        tick: @escaping @Sendable () throws -> Next, completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let alreadyStarted = state.withLock { state in
            defer { state.started = true }
            return state.started
        }
        precondition(!alreadyStarted, "a sampling loop runs once")
        let runOnce: @Sendable () -> Bool = { [self] in
            // Returns true when the loop has ended (and the completion ran).
            guard !isCancelled else {
                completion(nil)
                return true
            }
            do {
                switch try tick() {
                case .continue: return false
                case .finish:
                    completion(nil)
                    return true
                }
            } catch {
                completion(error)
                return true
            }
        }
        switch pacing {
        case .dispatchTimer:
            let timer = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
            let nanoseconds = Int((periodSeconds * 1e9).rounded())
            timer.schedule(
                deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                leeway: .nanoseconds(0))
            timer.setEventHandler { [self] in
                guard runOnce() else { return }
                // Dropping the timer breaks the cycle timer → handler → loop → timer.
                let ended = state.withLock { state in
                    defer { state.timer = nil }
                    return state.timer
                }
                ended?.timer.cancel()
            }
            let source = TimerSource(timer: timer)
            state.withLock { $0.timer = source }
            timer.resume()
        case .sleeping:
            let period = periodSeconds
            let pacing = pacing
            queue.async {
                guard case .sleeping(let clock) = pacing else { return }
                repeat { clock.sleep(seconds: period) } while !runOnce()
            }
        }
    }

    /// Ends the loop before its next tick; thread-safe, returns at once. The completion runs on
    /// the loop's queue (with nil) unless the loop had already ended.
    public func cancel() {
        state.withLock { $0.cancelled = true }
    }

    private var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }
}
