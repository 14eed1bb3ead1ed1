#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSystem

extension ControlServer {
    /// One client: reads its request line, holds until the reply is queued, writes it, then
    /// half-closes and reads what the client still sends until it closes, so closing never
    /// resets a connection whose client is still writing (a reset would lose the reply).
    final class Connection {
        enum ReadResult {
            case incomplete
            case closed
            case request(ControlRequest)
            case malformed(String)
        }

        enum State {
            /// Reading the request line, until `deadline`.
            case reading
            /// The daemon has the request; no deadline (a measurement takes minutes).
            case awaitingReply
            /// Writing the reply, until `deadline`.
            case writing
            /// The reply is out and our side shut down; discarding input until the client
            /// closes or `deadline`.
            case draining
        }

        private var descriptor: CInt
        /// The client's process (`SO_PEERCRED`), 0 when unknown.
        let peer: pid_t
        /// The server's turn (call of `receive()`) that accepted it.
        let turn: Int
        private(set) var state = State.reading
        /// When the current state ends (monotonic nanoseconds); not for `awaitingReply`.
        private(set) var deadline: UInt64
        private var input: [UInt8] = []
        private var output: [UInt8] = []
        private var written = 0

        init(descriptor: CInt, peer: pid_t, turn: Int, deadline: UInt64) {
            self.descriptor = descriptor
            self.peer = peer
            self.turn = turn
            self.deadline = deadline
        }

        deinit {
            close()
        }

        var isOpen: Bool { descriptor >= 0 }
        var isAwaitingReply: Bool { isOpen && state == .awaitingReply }
        var isWaitingForRequest: Bool { isOpen && state == .reading }
        var hasOutput: Bool { isOpen && state == .writing }
        var wroteEverything: Bool { (state == .writing || state == .draining) && written == output.count }

        /// Reads what is available: the request line while reading (anything after it is
        /// ignored), or input to discard while draining.
        func readRequest() -> ReadResult {
            guard isOpen, state == .reading || state == .draining else { return .incomplete }
            var buffer = [UInt8](repeating: 0, count: 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
                if count == 0 { return .closed }
                if count < 0 {
                    switch errno {
                    case EINTR: continue
                    case EAGAIN, EWOULDBLOCK: return .incomplete
                    default: return .closed
                    }
                }
                guard state == .reading else { continue }
                input += buffer[..<count]
                if let newline = input.firstIndex(of: UInt8(ascii: "\n")) {
                    state = .awaitingReply
                    do {
                        return .request(try ControlRequest(line: Array(input[..<newline])))
                    } catch {
                        return .malformed(error.reason)
                    }
                }
                if input.count > ControlServer.maximumRequestBytes {
                    state = .awaitingReply
                    return .malformed("request longer than \(ControlServer.maximumRequestBytes) bytes")
                }
            }
        }

        /// Queues the reply, to be written by `deadline`.
        func queue(_ reply: ControlReply, deadline: UInt64) {
            guard state == .reading || state == .awaitingReply else { return }
            state = .writing
            self.deadline = deadline
            input = []
            output = reply.line
            written = 0
        }

        /// Writes what the socket takes now; once the reply is out, shuts our side down and
        /// starts draining. Closes when the client is gone.
        func flush() {
            while isOpen && state == .writing && written < output.count {
                let count = output[written...].withUnsafeBytes {
                    // MSG_NOSIGNAL: a client that left must not kill the daemon with SIGPIPE.
                    send(descriptor, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL) | CInt(MSG_DONTWAIT))
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { return }
                    close()
                    return
                }
                written += count
            }
            if isOpen && state == .writing {
                state = .draining
                shutdown(descriptor, CInt(SHUT_WR))
                if case .closed = readRequest() { close() }
            }
        }

        func close() {
            guard descriptor >= 0 else { return }
            Glibc.close(descriptor)
            descriptor = -1
        }
    }
}
