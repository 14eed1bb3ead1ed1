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

/// Waits without a time-out until the watcher's descriptor is readable: the test hangs (and its
/// run is killed) rather than pass if the signal never arrives.
private func waitForSignal(_ watcher: SignalWatcher) throws -> Bool {
    var descriptors = [PollDescriptor(watcher.descriptor, .readable)]
    while try Poll.wait(&descriptors, timeoutNanoseconds: nil) == 0 {}
    return descriptors[0].returnedEvents.contains(.readable)
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

    @Test func signalSentToTheWatchingThreadMakesTheDescriptorReadable() throws {
        let watcher = try SignalWatcher()
        defer { watcher.restore() }
        let waiter = pthread_self()
        let sender = Repeater { pthread_kill(waiter, SIGTERM) }
        let readable = try waitForSignal(watcher)
        sender.join()
        #expect(readable)
        #expect(watcher.stopSignal == SIGTERM)
    }

    @Test func signalCaughtByAnotherThreadIsForwardedToTheWatchingThread() throws {
        let watcher = try SignalWatcher()
        defer { watcher.restore() }
        // raise() delivers to the calling thread: the handler runs on the repeater's thread, as
        // it would for a process-directed SIGTERM landing on a thread started before the watcher.
        let sender = Repeater { raise(SIGINT) }
        let readable = try waitForSignal(watcher)
        sender.join()
        #expect(readable)
        #expect(watcher.stopSignal == SIGINT)
    }

    @Test func aSignalBeforeTheWaitEndsTheWaitAtOnce() throws {
        let watcher = try SignalWatcher()
        defer { watcher.restore() }
        // The race a flag checked before poll(2) had: the signal is already there.
        raise(SIGHUP)
        #expect(try waitForSignal(watcher))
        #expect(watcher.takeReloadRequest())
        var descriptors = [PollDescriptor(watcher.descriptor, .readable)]
        #expect(try Poll.wait(&descriptors, timeoutNanoseconds: 0) == 0, "read signals are gone from the descriptor")
    }

    @Test func restorePutsThePreviousDispositionBack() throws {
        var before = sigaction()
        sigaction(SIGHUP, nil, &before)
        let watcher = try SignalWatcher()
        var during = sigaction()
        sigaction(SIGHUP, nil, &during)
        #expect(
            unsafeBitCast(during.__sigaction_handler.sa_handler, to: Int.self)
                != unsafeBitCast(before.__sigaction_handler.sa_handler, to: Int.self))
        watcher.restore()
        watcher.restore()
        var after = sigaction()
        sigaction(SIGHUP, nil, &after)
        #expect(
            unsafeBitCast(after.__sigaction_handler.sa_handler, to: Int.self)
                == unsafeBitCast(before.__sigaction_handler.sa_handler, to: Int.self))
        let again = try SignalWatcher()
        again.restore()
    }
}
