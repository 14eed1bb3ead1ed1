import Foundation
import ServiceSupport
import Testing

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite("Control messages")
struct ControlMessageTests {
    @Test(arguments: [
        ControlRequest.measure(limb: nil), .measure(limb: "left"), .measure(limb: "right", unscheduled: true),
        .measure(limb: nil, unscheduled: true), .measure(limb: nil, protocolName: "arc"), .calibrate, .status,
        .exportDone(files: []), .exportDone(files: ["romdev-a.csv", "romdev-a.json"]),
    ])
    func requestsRoundTripAsOneLine(request: ControlRequest) throws {
        let line = request.line
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1)
        #expect(try ControlRequest(line: Array(line.dropLast())) == request)
    }

    @Test func requestWireFormat() {
        #expect(text(ControlRequest.measure(limb: "left").line) == #"{"limb":"left","request":"measure"}"# + "\n")
        #expect(
            text(ControlRequest.measure(limb: nil, unscheduled: true).line)
                == #"{"request":"measure","unscheduled":true}"# + "\n")
        #expect(
            text(ControlRequest.exportDone(files: ["a/b.csv"]).line)
                == #"{"files":["a/b.csv"],"request":"export-done"}"# + "\n")
    }

    @Test(arguments: [
        (#"{"request":"reboot"}"#, "unknown request 'reboot'"),
        (#"{"limb":"left"}"#, #"no "request" name"#),
        (#"{"request":"measure","limb":"both"}"#, "limb must be left or right"),
        (#"{"request":"measure","protocol":"flexion"}"#, "protocol must be extension or arc"),
        (#"{"request":"measure","unscheduled":"yes"}"#, "unscheduled must be true or false"),
        (#"{"request":"export-done","files":"x.csv"}"#, "files must be a list of names"),
        (#"["status"]"#, "not a JSON object"),
        ("status", "not JSON: status"),
        // A key given twice: the decoder keeps the first, on both ends alike.
        (#"{"request":"reboot","request":"status"}"#, "unknown request 'reboot'"),
        (#"{"request":"measure","unscheduled":1}"#, "unscheduled must be true or false"),
        (#"{"request":"measure","unscheduled":"true"}"#, "unscheduled must be true or false"),
        (#"{"request":"status","verbose":true}"#, #"unknown key "verbose" in a status request"#),
        (#"{"request":"measure","limb":{"side":"left"}}"#, "limb must be left or right"),
        (#"{"request":"export-done","files":[["a"]]}"#, "files must be a list of names"),
        (#"{"request":"status"} {}"#, #"not JSON: {"request":"status"} {}"#),
        ("", "empty request"),
    ])
    func malformedRequestsAreRefusedWithAReason(line: String, reason: String) {
        #expect(throws: ControlMessageError(reason)) { try ControlRequest(line: bytes(line)) }
    }

    @Test func escapesAndSpacingAreJSONAllTheSame() throws {
        #expect(try ControlRequest(line: bytes(#" { "request" : "stat\u0075s" } "#)) == .status)
        #expect(
            try ControlRequest(line: bytes(#"{"request":"export-done","files":["a\"b.csv","\ud83d\ude00"]}"#))
                == .exportDone(files: ["a\"b.csv", "😀"]))
        #expect(
            try ControlRequest(line: bytes(#"{"request":"measure","limb":null,"unscheduled":false}"#))
                == .measure(limb: nil, unscheduled: false))
    }

    @Test func replyWithPayloadRoundTrips() throws {
        struct Result: Codable, Equatable {
            var rangeDegrees: Double
            var limb: String
        }
        let reply = try ControlReply.ok(
            "Range of motion 112°\nstored", payload: Result(rangeDegrees: 112.5, limb: "left"))
        let line = reply.line
        #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1, "one line even with a newline in the message")
        let decoded = try ControlReply(line: Array(line.dropLast()))
        #expect(decoded.status == .ok)
        #expect(decoded.message == "Range of motion 112°\nstored")
        #expect(try decoded.decodePayload(as: Result.self) == Result(rangeDegrees: 112.5, limb: "left"))
    }

    @Test(arguments: ControlReply.Status.allCases)
    func repliesWithoutPayloadRoundTrip(status: ControlReply.Status) throws {
        let reply = ControlReply(status: status, message: "why")
        #expect(try ControlReply(line: Array(reply.line.dropLast())) == reply)
        #expect(throws: ControlMessageError("the reply has no payload")) { try reply.decodePayload(as: [String].self) }
    }

    @Test func replyWireFormat() {
        #expect(
            text(ControlReply.busy("a measurement is running").line)
                == #"{"message":"a measurement is running","status":"busy"}"# + "\n")
        #expect(text(ControlReply.badRequest("x").line) == #"{"message":"x","status":"bad-request"}"# + "\n")
    }

    @Test func malformedRepliesAreRefused() {
        #expect(throws: ControlMessageError(#"no known "status""#)) {
            try ControlReply(line: bytes(#"{"status":"maybe","message":""}"#))
        }
        #expect(throws: ControlMessageError(#"no "message""#)) { try ControlReply(line: bytes(#"{"status":"ok"}"#)) }
    }
}

@Suite("Control socket location")
struct ControlSocketLocationTests {
    @Test func environmentThenConfigurationThenRun() {
        #expect(ControlSocketLocation.path(environment: [:]) == "/run/romdev/control.sock")
        #expect(
            ControlSocketLocation.path(configuredDirectory: "/srv/romdev", environment: [:])
                == "/srv/romdev/control.sock")
        #expect(
            ControlSocketLocation.path(
                configuredDirectory: "/srv/romdev", environment: ["ROMDEV_RUNTIME_DIR": "/tmp/r/"])
                == "/tmp/r/control.sock")
        #expect(
            ControlSocketLocation.path(configuredDirectory: "", environment: ["ROMDEV_RUNTIME_DIR": ""])
                == "/run/romdev/control.sock")
    }
}
