#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `poll(2)` waits for on a descriptor, or reports back. The corresponding C constants are
/// `POLLIN`, `POLLOUT`, `POLLERR`, `POLLHUP`, `POLLNVAL`.
public struct PollEvents: OptionSet, Hashable, Sendable {
    public let rawValue: Int16

    public init(rawValue: Int16) {
        self.rawValue = rawValue
    }

    /// Data (or, on a listening socket, a client) to read.
    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// Room to write.
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// An error condition; always reported, never asked for.
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// The other end hung up; always reported, never asked for.
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// The descriptor is not open; always reported, never asked for.
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// One descriptor of a ``Poll/wait(_:timeoutNanoseconds:)`` call: what to wait for, and what
/// happened.
public struct PollDescriptor: Equatable, Sendable {
    public let descriptor: CInt
    public let events: PollEvents
    /// Set by the wait: what is ready (hang-ups and errors included).
    public internal(set) var returnedEvents: PollEvents = []

    public init(_ descriptor: CInt, _ events: PollEvents = .readable) {
        self.descriptor = descriptor
        self.events = events
    }

    /// True when the wait found anything on the descriptor, a hang-up or error included (a read
    /// then reports it).
    public var isReady: Bool { !returnedEvents.isEmpty }
}

/// `poll(2)`: the one place a thread of this program blocks on several descriptors.
public enum Poll {
    /// Waits until one of `descriptors` is ready or `timeoutNanoseconds` passes (nil: no limit).
    ///
    /// A signal handled by a handler ends the wait early with nothing ready (not an error), so
    /// the caller looks at its flags and recomputes its time-out; a daemon that takes its signals
    /// from a ``SignalFD`` never sees that. The time-out is rounded up to whole milliseconds, so
    /// a wait never spins on zero just before a deadline.
    /// - Returns: How many descriptors are ready; their ``PollDescriptor/returnedEvents`` say what.
    /// - Throws: The `poll` error (`EINVAL`, `ENOMEM`).
    @discardableResult
    public static func wait(_ descriptors: inout [PollDescriptor], timeoutNanoseconds: UInt64?) throws(Errno) -> Int {
        var entries = descriptors.map { pollfd(fd: $0.descriptor, events: $0.events.rawValue, revents: 0) }
        let milliseconds =
            timeoutNanoseconds.map { CInt(clamping: ($0 / 1_000_000) + ($0 % 1_000_000 == 0 ? 0 : 1)) } ?? -1
        let result = poll(&entries, nfds_t(entries.count), milliseconds)
        if result < 0 {
            let error = Errno.current
            if error == .interrupted { return 0 }
            throw error
        }
        for index in descriptors.indices {
            descriptors[index].returnedEvents = PollEvents(rawValue: entries[index].revents)
        }
        return Int(result)
    }

    /// Whether `descriptor` is ready for `events` right now, without waiting.
    public static func isReady(_ descriptor: CInt, for events: PollEvents = .readable) throws(Errno) -> Bool {
        var entries = [PollDescriptor(descriptor, events)]
        return try wait(&entries, timeoutNanoseconds: 0) > 0
    }
}
