import Foundation
import ServiceSupport
import Synchronization

/// A daemon's control socket served on its own thread: answers each request with `answer` and
/// records what it was asked.
final class FakeDaemon: Sendable {
    let path: String
    private let requests = Mutex<[ControlRequest]>([])
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(runtimeDirectory: String, answer: @escaping @Sendable (ControlRequest) -> ControlReply) throws {
        let server = try ControlServer(path: runtimeDirectory + "/" + ControlSocketLocation.fileName)
        path = server.path
        nonisolated(unsafe) let owned = server
        Thread.detachNewThread { [self] in
            while !stopped.load(ordering: .sequentiallyConsistent) {
                for received in (try? owned.receive()) ?? [] {
                    requests.withLock { $0.append(received.request) }
                    owned.reply(answer(received.request), to: received.id)
                }
                var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
                nanosleep(&pause, nil)
            }
            owned.close()
            finished.signal()
        }
    }

    /// Stops serving, removes the socket and returns every request received.
    func stop() -> [ControlRequest] {
        stopped.store(true, ordering: .sequentiallyConsistent)
        finished.wait()
        return requests.withLock { $0 }
    }
}
