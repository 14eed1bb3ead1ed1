import CLinux

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A kernel counter that is readable while it is above zero: how one thread (or a simulated
/// device) wakes a ``Poll`` wait in another. The corresponding call is
/// `eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)`.
public final class EventFD: @unchecked Sendable {
    /// The descriptor to poll for ``PollEvents/readable``; owned here, never close it.
    public let descriptor: CInt

    /// - Throws: The `eventfd` error (`EMFILE`, `ENOMEM`).
    public init() throws(Errno) {
        let descriptor = eventfd(0, CInt(EFD_NONBLOCK | EFD_CLOEXEC))
        guard descriptor >= 0 else { throw .current }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Makes the descriptor readable. The corresponding call is `write(fd, &1, 8)`.
    /// - Throws: The `write` error; a counter at its maximum (`EAGAIN`) already reads as readable
    ///   and is not an error.
    public func signal() throws(Errno) {
        var one: UInt64 = 1
        try retryingOnInterrupt { () throws(Errno) in
            if write(descriptor, &one, 8) == 8 { return }
            let error = Errno.current
            if error != .resourceTemporarilyUnavailable { throw error }
        }
    }

    /// Resets the counter so the descriptor is no longer readable.
    /// - Returns: The count since the last reset (0 when it was not signalled).
    @discardableResult
    public func reset() throws(Errno) -> UInt64 {
        var count: UInt64 = 0
        return try retryingOnInterrupt { () throws(Errno) -> UInt64 in
            if read(descriptor, &count, 8) == 8 { return count }
            let error = Errno.current
            if error == .resourceTemporarilyUnavailable { return 0 }
            throw error
        }
    }
}
