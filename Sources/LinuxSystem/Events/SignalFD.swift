import CLinux

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Signals delivered as readable data instead of to a handler: the signals are blocked in every
/// thread and read from the descriptor by the loop that polls it, so there is no handler, no
/// race between checking a flag and starting a wait, and no interrupted system call. The
/// corresponding calls are `pthread_sigmask(SIG_BLOCK, …)` and
/// `signalfd(-1, mask, SFD_NONBLOCK | SFD_CLOEXEC)`.
///
/// Block the signals before other threads start, or make sure they block them too: a signal is
/// delivered to any thread that has it unblocked (Dispatch's threads start with every signal
/// blocked).
public final class SignalFD: @unchecked Sendable {
    /// The descriptor to poll for ``PollEvents/readable``; owned here, never close it.
    public let descriptor: CInt
    /// The signals read from it.
    public let signals: [CInt]
    private var previousMask = sigset_t()

    /// Blocks `signals` in the calling thread and opens the descriptor for them.
    /// - Throws: The `signalfd` error; the mask is restored then.
    public init(signals: [CInt]) throws(Errno) {
        self.signals = signals
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals {
            sigaddset(&set, signal)
        }
        pthread_sigmask(SIG_BLOCK, &set, &previousMask)
        let descriptor = signalfd(-1, &set, CInt(SFD_NONBLOCK | SFD_CLOEXEC))
        guard descriptor >= 0 else {
            let error = Errno.current
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            throw error
        }
        self.descriptor = descriptor
    }

    /// Closes the descriptor. The signals stay blocked: unblocking one that is pending would
    /// deliver it with its default action (termination) during clean-up; call ``restoreMask()``
    /// from the creating thread when that is wanted.
    deinit {
        close(descriptor)
    }

    /// Puts back the creating thread's signal mask from before; call it from that thread.
    public func restoreMask() {
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// The signals pending on the descriptor, oldest first; empty when none is.
    /// - Throws: The `read` error.
    public func take() throws(Errno) -> [CInt] {
        var taken: [CInt] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while true {
            let count = try retryingOnInterrupt { () throws(Errno) -> Int in
                let count = read(descriptor, &info, size)
                if count >= 0 { return count }
                let error = Errno.current
                if error == .resourceTemporarilyUnavailable { return 0 }
                throw error
            }
            guard count == size else { return taken }
            taken.append(CInt(info.ssi_signo))
        }
    }
}
