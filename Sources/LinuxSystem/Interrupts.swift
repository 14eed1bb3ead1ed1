/// Runs `body` again while it fails with `EINTR`, the EINTR policy for reads, writes and ioctls.
///
/// Never wrap `close(2)` in this: on Linux the descriptor is released even when `close` reports
/// `EINTR`, so a retry could close a descriptor another thread has just been given.
/// - Throws: The first error from `body` that is not `Errno.interrupted`.
public func retryingOnInterrupt<T>(_ body: () throws(Errno) -> T) throws(Errno) -> T {
    while true {
        do {
            return try body()
        } catch .interrupted {
            continue
        }
    }
}
