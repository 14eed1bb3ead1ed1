import LinuxSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

        private let socket: UnixSocket
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

        init(socket: UnixSocket, turn: Int, deadline: UInt64) {
            self.socket = socket
            peer = socket.peerProcessID
            self.turn = turn
            self.deadline = deadline
        }

        var isOpen: Bool { socket.descriptor >= 0 }

        /// What a wait for this client watches: input while reading or draining, room while
        /// writing; nil while the daemon holds the request.
        var pollDescriptor: PollDescriptor? {
            guard isOpen else { return nil }
            switch state {
            case .reading, .draining: return PollDescriptor(socket.descriptor, .readable)
            case .writing: return PollDescriptor(socket.descriptor, .writable)
            case .awaitingReply: return nil
            }
        }

        var isAwaitingReply: Bool { isOpen && state == .awaitingReply }
        var isWaitingForRequest: Bool { isOpen && state == .reading }
        var hasOutput: Bool { isOpen && state == .writing }
        var wroteEverything: Bool { (state == .writing || state == .draining) && written == output.count }

        /// Reads what is available: the request line while reading (anything after it is
        /// ignored), or input to discard while draining.
        func readRequest() -> ReadResult {
            guard isOpen, state == .reading || state == .draining else { return .incomplete }
            while true {
                let bytes: [UInt8]?
                do {
                    bytes = try socket.receive(maximumBytes: 1024)
                } catch {
                    return .closed
                }
                guard let bytes else { return .incomplete }
                if bytes.isEmpty { return .closed }
                guard state == .reading else { continue }
                input += bytes
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
                let count: Int?
                do {
                    count = try socket.send(output[written...])
                } catch {
                    close()
                    return
                }
                guard let count else { return }
                written += count
            }
            if isOpen && state == .writing {
                state = .draining
                socket.shutdownWrite()
                if case .closed = readRequest() { close() }
            }
        }

        func close() {
            socket.close()
        }
    }
}
