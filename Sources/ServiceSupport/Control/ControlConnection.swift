#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSystem

extension ControlServer {
    /// One client: reads its request line, then holds until the reply is written.
    final class Connection {
        enum ReadResult {
            case incomplete
            case closed
            case request(ControlRequest)
            case malformed(String)
        }

        private var descriptor: CInt
        private var input: [UInt8] = []
        private var output: [UInt8] = []
        private var written = 0
        private var hasRequest = false
        private var hasReply = false

        init(descriptor: CInt) {
            self.descriptor = descriptor
        }

        deinit {
            close()
        }

        var isOpen: Bool { descriptor >= 0 }
        var isAwaitingReply: Bool { isOpen && hasRequest && !hasReply }
        var isWaitingForRequest: Bool { isOpen && !hasRequest && !hasReply }
        var hasOutput: Bool { isOpen && written < output.count }
        var wroteEverything: Bool { hasReply && written == output.count }

        /// Reads what is available; only the first line counts, anything after it is ignored.
        func readRequest() -> ReadResult {
            guard isOpen, !hasRequest, !hasReply else { return .incomplete }
            var buffer = [UInt8](repeating: 0, count: 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
                if count == 0 { return .closed }
                if count < 0 {
                    switch errno {
                    case EINTR: continue
                    case EAGAIN, EWOULDBLOCK: break
                    default: return .closed
                    }
                    break
                }
                input += buffer[..<count]
                if let newline = input.firstIndex(of: UInt8(ascii: "\n")) {
                    hasRequest = true
                    do {
                        return .request(try ControlRequest(line: Array(input[..<newline])))
                    } catch {
                        return .malformed(error.reason)
                    }
                }
                if input.count > ControlServer.maximumRequestBytes {
                    hasRequest = true
                    return .malformed("request longer than \(ControlServer.maximumRequestBytes) bytes")
                }
            }
            return .incomplete
        }

        func queue(_ reply: ControlReply) {
            guard !hasReply else { return }
            hasReply = true
            hasRequest = true
            output = reply.line
            written = 0
        }

        /// Writes what the socket takes now; closes once the reply is out or the client is gone.
        func flush() {
            while isOpen && written < output.count {
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
            if hasReply && written == output.count {
                close()
            }
        }

        func close() {
            guard descriptor >= 0 else { return }
            Glibc.close(descriptor)
            descriptor = -1
        }
    }
}
