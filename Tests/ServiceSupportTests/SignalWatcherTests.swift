import Foundation
import Glibc
import LinuxSystem
import ServiceSupport
import Synchronization
import Testing

/// A thread that runs `body` until told to stop, then can be joined.
private final class Repeater: Sendable {
    private let stop = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { self.run(body) }
    }

    private func run(_ body: () -> Void) {
        // Threads inherit their creator's mask, and the test's thread comes from Dispatch, which
        // blocks signals; unblock the ones the tests send so they run the handler here.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        while !stop.load(ordering: .sequentiallyConsistent) {
            body()
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }
        finished.signal()
    }

    /// Stops the loop and waits for the thread to end, so no signal it sends arrives later.
    func join() {
        stop.store(true, ordering: .sequentiallyConsistent)
        finished.wait()
    }
}

/// Blocks in poll(2) on an empty pipe for up to a minute; returns poll's result and errno.
private func pollEmptyPipe() -> (result: CInt, errno: Errno) {
    var ends: [CInt] = [0, 0]
    pipe(&ends)
    defer {
        close(ends[0])
        close(ends[1])
    }
    var entry = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
    let result = poll(&entry, 1, 60_000)
    return (result, Errno.current)
}

/// Every test installs the process-wide handlers, so they run one at a time. Signals are sent
/// only to threads of this test (raise, pthread_kill), and every sender is joined before the
/// previous dispositions come back, so no stray SIGTERM can reach the test runner.
@Suite("Signal watcher", .serialized)
struct SignalWatcherTests {
    @Test func stopSignalSetsTheFlag() throws {
        let watcher = try SignalWatcher()
        defer { watcher.restore() }
        #expect(!watcher.isStopRequested)
        raise(SIGTERM)
        #expect(watcher.stopSignal == SIGTERM)
        raise(SIGINT)
        #expect(watcher.stopSignal == SIGTERM, "the first stop signal is kept")
    }

    @Test func hangupIsAReloadRequestTakenOnce() throws {
        let watcher = try SignalWatcher()
        defer { watcher.restore() }
        #expect(!watcher.takeReloadRequest())
        raise(SIGHUP)
        #expect(!watcher.isStopRequested)
        #expect(watcher.takeReloadRequest())
        #expect(!watcher.takeReloadRequest())
    }

    @Test func signalInterruptsABlockingPollInTheWatchingThread() throws {
        let watcher = try SignalWatcher()
        defer { watcher.restore() }
        let waiter = pthread_self()
        // Repeated, so the wait is interrupted even if the first signal lands before poll starts.
        let sender = Repeater { pthread_kill(waiter, SIGTERM) }
        let (result, error) = pollEmptyPipe()
        sender.join()
        #expect(result == -1)
        #expect(error == .interrupted)
        #expect(watcher.stopSignal == SIGTERM)
    }

    @Test func signalCaughtByAnotherThreadIsForwardedToTheWatchingThread() throws {
        let watcher = try SignalWatcher()
        defer { watcher.restore() }
        // raise() delivers to the calling thread: the handler runs on the repeater's thread, as
        // it would for a process-directed SIGTERM landing on a runtime thread.
        let sender = Repeater { raise(SIGINT) }
        let (result, error) = pollEmptyPipe()
        sender.join()
        #expect(result == -1)
        #expect(error == .interrupted)
        #expect(watcher.stopSignal == SIGINT)
    }

    @Test func restorePutsThePreviousDispositionBack() throws {
        var before = sigaction()
        sigaction(SIGHUP, nil, &before)
        let watcher = try SignalWatcher()
        var during = sigaction()
        sigaction(SIGHUP, nil, &during)
        #expect(during.sa_flags & CInt(SA_RESTART) == 0, "waits must be interrupted, not restarted")
        watcher.restore()
        watcher.restore()
        var after = sigaction()
        sigaction(SIGHUP, nil, &after)
        #expect(unsafeBitCast(after.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(before.__sigaction_handler.sa_handler, to: Int.self))
        let again = try SignalWatcher()
        again.restore()
    }
}
