import Foundation
import Glibc
import ServiceSupport
import TestSupport
import Testing

/// Every one-byte mutation of valid request lines (a byte deleted, or replaced by one of the
/// bytes JSON gives a meaning, or by bytes that are not text): exhaustive, so the same cases run
/// every time. Each line either decodes to a request that encodes back to itself, or is refused
/// with a reason; through the socket, each refused line gets a `bad-request` reply.
@Suite("Control request mutations")
struct ControlRequestMutationTests {
    static let valid: [ControlRequest] = [
        .measure(limb: "left", unscheduled: true), .status, .calibrate, .exportDone(files: ["a.csv", "b.json"]),
    ]
    static let replacements: [UInt8] = Array(#"{}[]",:1t\ "#.utf8) + [0x00, 0x0A, 0x80, 0xFF]

    static var mutations: [[UInt8]] {
        var lines: [[UInt8]] = []
        for request in valid {
            let line = Array(request.line.dropLast())
            for index in line.indices {
                var deleted = line
                deleted.remove(at: index)
                lines.append(deleted)
                for byte in replacements where byte != line[index] {
                    var replaced = line
                    replaced[index] = byte
                    lines.append(replaced)
                }
            }
        }
        return lines
    }

    @Test func everyMutationDecodesFaithfullyOrIsRefusedWithAReason() {
        var refused = 0
        for line in Self.mutations {
            do {
                let request = try ControlRequest(line: line)
                #expect(try ControlRequest(line: Array(request.line.dropLast())) == request)
            } catch {
                #expect(!error.reason.isEmpty)
                refused += 1
            }
        }
        #expect(refused > Self.mutations.count / 2)
    }

    @Test func everyRefusedLineGetsABadRequestReplyFromTheServer() throws {
        let directory = try TemporaryDirectory()
        let server = try ControlServer(path: directory.path("control.sock"))
        // Newlines inside a mutation would end the line early: those lines are other lines.
        let refused = Self.mutations.filter { line in
            !line.contains(0x0A) && (try? ControlRequest(line: line)) == nil
        }
        for line in refused.enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
            let descriptor = try #require(rawConnect(server.path))
            defer { close(descriptor) }
            _ = (line + [0x0A]).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL)) }
            // The whole line is in the socket before the server looks: one receive reads it.
            #expect(try server.receive().isEmpty)
            var reply: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                reply += buffer[..<count]
            }
            let decoded = try ControlReply(line: Array(reply.dropLast()))
            #expect(decoded.status == .badRequest, "\(String(decoding: line, as: UTF8.self))")
        }
    }
}
