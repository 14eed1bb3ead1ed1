#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSystem
import Synchronization

/// Catches the stop signals (SIGTERM from systemd, SIGINT from a terminal, SIGQUIT) and SIGHUP,
/// and turns them into flags the daemon's single-threaded loop checks between waits; ignores the
/// signals that would otherwise kill the process without its clean-up (SIGPIPE, SIGUSR1, SIGUSR2,
/// SIGALRM), none of which means anything to the daemon.
///
/// The handler only stores to atomics and may forward the signal with `pthread_kill`, both
/// async-signal-safe. It is installed without `SA_RESTART`, so a blocking `poll(2)` in the thread
/// that installed the watcher (the loop's `waitForButton`) returns `EINTR` and the loop sees the
/// flag at once. A process-directed signal may land on any thread that does not block it (the
/// runtime has some), so a handler running elsewhere forwards the signal to the installing thread.
///
/// A signal that arrives after the loop checked the flag but before it entered `poll` is seen at
/// the end of that wait, which the loop bounds with its next deadline.
public final class SignalWatcher: Sendable {
    /// Signals that ask the process to stop.
    public let stopSignals: [CInt]
    /// Signals that ask it to reload (re-read its configuration).
    public let reloadSignals: [CInt]
    /// Signals set to `SIG_IGN` while the watcher is installed.
    public let ignoredSignals: [CInt]
    private let previous: [(CInt, sigaction)]
    private let previousMask: sigset_t
    private let thread: pthread_t

    /// Installs the handler for `stopSignals` and `reloadSignals`, and `SIG_IGN` for
    /// `ignoredSignals`, in place of their current dispositions, and makes the calling thread the
    /// one whose waits a signal interrupts.
    ///
    /// The signals are unblocked in the calling thread (threads started by Dispatch block them,
    /// and a blocked signal would only stay pending).
    ///
    /// One watcher at a time: installing a second before ``restore()`` is a programming error.
    /// - Throws: The `sigaction(2)` error; nothing stays installed then.
    public init(
        stopSignals: [CInt] = [SIGTERM, SIGINT, SIGQUIT], reloadSignals: [CInt] = [SIGHUP],
        ignoredSignals: [CInt] = [SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM]
    ) throws(Errno) {
        precondition(SignalState.installed.exchange(true, ordering: .sequentiallyConsistent) == false,
                     "a SignalWatcher is already installed")
        self.stopSignals = stopSignals
        self.reloadSignals = reloadSignals
        self.ignoredSignals = ignoredSignals
        // Every global the handler reads is initialised here, before any handler can run, so the
        // handler never runs a lazy initialiser (which takes a lock).
        SignalState.stopSignal.store(0, ordering: .sequentiallyConsistent)
        SignalState.reloadRequested.store(false, ordering: .sequentiallyConsistent)
        SignalState.stopMask.store(Self.mask(stopSignals), ordering: .sequentiallyConsistent)
        SignalState.waitingThread.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
        var saved: [(CInt, sigaction)] = []
        for signal in stopSignals + reloadSignals + ignoredSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = ignoredSignals.contains(signal) ? SIG_IGN : signalWatcherHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: interrupted waits must return EINTR
            var old = sigaction()
            guard sigaction(signal, &action, &old) == 0 else {
                let error = Errno.current
                Self.restore(saved)
                SignalState.installed.store(false, ordering: .sequentiallyConsistent)
                throw error
            }
            saved.append((signal, old))
        }
        previous = saved
        var set = sigset_t()
        sigemptyset(&set)
        for signal in stopSignals + reloadSignals {
            sigaddset(&set, signal)
        }
        var mask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &set, &mask)
        previousMask = mask
        thread = pthread_self()
    }

    /// The first stop signal received since installation, or nil.
    public var stopSignal: CInt? {
        let signal = SignalState.stopSignal.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : signal
    }

    /// True once a stop signal has arrived.
    public var isStopRequested: Bool { stopSignal != nil }

    /// True when a reload signal arrived since the last call; clears the request.
    public func takeReloadRequest() -> Bool {
        SignalState.reloadRequested.exchange(false, ordering: .sequentiallyConsistent)
    }

    /// Puts the previous dispositions back (and, called from the installing thread, its signal
    /// mask) and clears the flags, so another watcher may be installed. Safe to call more than once.
    public func restore() {
        guard SignalState.installed.load(ordering: .sequentiallyConsistent) else { return }
        if pthread_equal(thread, pthread_self()) != 0 {
            var mask = previousMask
            pthread_sigmask(SIG_SETMASK, &mask, nil)
        }
        Self.restore(previous)
        SignalState.waitingThread.store(0, ordering: .sequentiallyConsistent)
        SignalState.stopSignal.store(0, ordering: .sequentiallyConsistent)
        SignalState.reloadRequested.store(false, ordering: .sequentiallyConsistent)
        SignalState.installed.store(false, ordering: .sequentiallyConsistent)
    }

    private static func restore(_ saved: [(CInt, sigaction)]) {
        for (signal, action) in saved.reversed() {
            var action = action
            sigaction(signal, &action, nil)
        }
    }

    private static func mask(_ signals: [CInt]) -> UInt64 {
        signals.reduce(0) { $0 | (1 << UInt64($1)) }
    }
}

/// What the handler shares with the loop. Only atomics: nothing here may take a lock.
private enum SignalState {
    static let installed = Atomic<Bool>(false)
    static let stopSignal = Atomic<CInt>(0)
    static let reloadRequested = Atomic<Bool>(false)
    static let stopMask = Atomic<UInt64>(0)
    static let waitingThread = Atomic<UInt>(0)
}

/// The signal handler: async-signal-safe, it touches only atomics and `pthread_kill`.
private func signalWatcherHandler(_ signal: CInt) {
    if SignalState.stopMask.load(ordering: .relaxed) & (1 << UInt64(signal)) != 0 {
        // Keep the first stop signal; a second one (SIGINT after SIGTERM) changes nothing.
        _ = SignalState.stopSignal.compareExchange(expected: 0, desired: signal, ordering: .sequentiallyConsistent)
    } else {
        SignalState.reloadRequested.store(true, ordering: .sequentiallyConsistent)
    }
    let waiter = SignalState.waitingThread.load(ordering: .sequentiallyConsistent)
    if waiter != 0 && UInt(pthread_self()) != waiter {
        // pthread_kill may set errno through its return path only, but keep the interrupted
        // code's errno intact anyway.
        let savedErrno = errno
        pthread_kill(pthread_t(waiter), signal)
        errno = savedErrno
    }
}
