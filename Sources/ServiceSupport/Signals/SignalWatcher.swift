import LinuxSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Catches the stop signals (SIGTERM from systemd, SIGINT from a terminal, SIGQUIT) and SIGHUP
/// as readable data on a ``SignalFD`` the daemon's loop polls with its other sources; ignores the
/// signals that would otherwise kill the process without its clean-up (SIGPIPE, SIGUSR1, SIGUSR2,
/// SIGALRM), none of which means anything to the daemon.
///
/// The signals are blocked in the installing thread, so they stay pending there until the loop
/// reads them: no handler runs in that thread, no wait is interrupted, and a signal arriving
/// just before the loop starts waiting makes the wait end at once. A process-directed signal may
/// land on another thread that does not block it (threads started before the watcher); a
/// handler there forwards it to the installing thread with `pthread_kill`, both
/// async-signal-safe.
public final class SignalWatcher: @unchecked Sendable {
    /// Signals that ask the process to stop.
    public let stopSignals: [CInt]
    /// Signals that ask it to reload (re-read its configuration).
    public let reloadSignals: [CInt]
    /// Signals set to `SIG_IGN` while the watcher is installed.
    public let ignoredSignals: [CInt]
    private let previous: [(CInt, sigaction)]
    private let thread: pthread_t
    private let pending: SignalFD
    /// What was read from `pending`; only the installing thread reads it.
    private var firstStopSignal: CInt?
    private var reloadRequested = false

    /// Installs the forwarding handler for `stopSignals` and `reloadSignals`, and `SIG_IGN` for
    /// `ignoredSignals`, in place of their current dispositions, and blocks the first two in the
    /// calling thread, whose loop then reads them from ``descriptor``.
    ///
    /// One watcher at a time: installing a second before ``restore()`` is a programming error.
    /// - Throws: The `sigaction(2)` or `signalfd(2)` error; nothing stays installed then.
    public init(
        stopSignals: [CInt] = [SIGTERM, SIGINT, SIGQUIT], reloadSignals: [CInt] = [SIGHUP],
        ignoredSignals: [CInt] = [SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM]
    ) throws(Errno) {
        precondition(
            SignalState.installed.exchange(true, ordering: .sequentiallyConsistent) == false,
            "a SignalWatcher is already installed")
        self.stopSignals = stopSignals
        self.reloadSignals = reloadSignals
        self.ignoredSignals = ignoredSignals
        // Set before any handler can run, so the handler never runs a lazy initialiser (which
        // takes a lock).
        SignalState.waitingThread.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
        do {
            pending = try SignalFD(signals: stopSignals + reloadSignals)
        } catch {
            SignalState.installed.store(false, ordering: .sequentiallyConsistent)
            throw error
        }
        var saved: [(CInt, sigaction)] = []
        for signal in stopSignals + reloadSignals + ignoredSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = ignoredSignals.contains(signal) ? SIG_IGN : signalWatcherHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            var old = sigaction()
            guard sigaction(signal, &action, &old) == 0 else {
                let error = Errno.current
                Self.restore(saved)
                pending.restoreMask()
                SignalState.installed.store(false, ordering: .sequentiallyConsistent)
                throw error
            }
            saved.append((signal, old))
        }
        previous = saved
        thread = pthread_self()
    }

    /// Readable while a signal is pending, for the loop's `poll(2)`; owned by the watcher.
    public var descriptor: CInt { pending.descriptor }

    /// The first stop signal received since installation, or nil. Call it from the installing
    /// thread: it reads the pending signals.
    public var stopSignal: CInt? {
        collect()
        return firstStopSignal
    }

    /// True once a stop signal has arrived.
    public var isStopRequested: Bool { stopSignal != nil }

    /// True when a reload signal arrived since the last call; clears the request.
    public func takeReloadRequest() -> Bool {
        collect()
        defer { reloadRequested = false }
        return reloadRequested
    }

    /// Reads the pending signals into the flags.
    private func collect() {
        // A failing read of a signalfd means it is broken; the signals then stay pending and a
        // stop is still seen by the service manager's time-out and SIGKILL.
        for signal in (try? pending.take()) ?? [] {
            if stopSignals.contains(signal) {
                // Keep the first stop signal; a second one (SIGINT after SIGTERM) changes nothing.
                if firstStopSignal == nil { firstStopSignal = signal }
            } else {
                reloadRequested = true
            }
        }
    }

    /// Puts the previous dispositions back (and, called from the installing thread, its signal
    /// mask), so another watcher may be installed. Signals still pending are read and dropped
    /// first, so unblocking cannot deliver them. Safe to call more than once.
    public func restore() {
        guard SignalState.installed.load(ordering: .sequentiallyConsistent) else { return }
        collect()
        if pthread_equal(thread, pthread_self()) != 0 {
            pending.restoreMask()
        }
        Self.restore(previous)
        SignalState.waitingThread.store(0, ordering: .sequentiallyConsistent)
        SignalState.installed.store(false, ordering: .sequentiallyConsistent)
    }

    private static func restore(_ saved: [(CInt, sigaction)]) {
        for (signal, action) in saved.reversed() {
            var action = action
            sigaction(signal, &action, nil)
        }
    }
}

/// What the handler shares with the installer. Only atomics: nothing here may take a lock.
private enum SignalState {
    static let installed = Atomic<Bool>(false)
    static let waitingThread = Atomic<UInt>(0)
}

/// The signal handler, for a signal that landed on a thread other than the watcher's: forwards
/// it there, where it is blocked and so waits for the loop's read. Async-signal-safe.
private func signalWatcherHandler(_ signal: CInt) {
    let waiter = SignalState.waitingThread.load(ordering: .sequentiallyConsistent)
    if waiter != 0 && UInt(pthread_self()) != waiter {
        // pthread_kill reports errors by its return value, but keep the interrupted code's
        // errno intact anyway.
        let savedErrno = errno
        pthread_kill(pthread_t(waiter), signal)
        errno = savedErrno
    }
}
