import Foundation

/// The daemon's answer to one ``ControlRequest``, one JSON object per line:
///
///     {"status":"ok","message":"Range of motion 112°","payload":{…}}
///     {"status":"busy","message":"a measurement is running"}
///     {"status":"failed","message":"motion sensor missing on /dev/i2c-1"}
///     {"status":"bad-request","message":"unknown request 'reboot'"}
///
/// `message` is one line for people; `payload`, on success, is the result as JSON for programs.
public struct ControlReply: Equatable, Sendable {
    /// How the request went.
    public enum Status: String, Codable, Sendable, CaseIterable {
        /// Done; `payload` may carry the result.
        case ok
        /// Not now: the daemon is measuring, calibrating or guiding the patient.
        case busy
        /// Tried and failed; `message` says why.
        case failed
        /// The request was not understood.
        case badRequest = "bad-request"
    }

    public var status: Status
    public var message: String
    /// The result as canonical JSON (sorted keys), or nil.
    public var payload: Data?

    public init(status: Status, message: String, payload: Data? = nil) {
        self.status = status
        self.message = message
        self.payload = payload
    }

    /// Success with `payload` encoded as JSON.
    /// - Throws: The encoder's error.
    public static func ok<Payload: Encodable>(_ message: String, payload: Payload) throws -> ControlReply {
        ControlReply(status: .ok, message: message, payload: try ControlJSON.encoder().encode(payload))
    }

    /// Success without a payload.
    public static func ok(_ message: String) -> ControlReply { ControlReply(status: .ok, message: message) }
    /// Refused because the daemon is doing something else.
    public static func busy(_ message: String) -> ControlReply { ControlReply(status: .busy, message: message) }
    /// Tried and failed.
    public static func failed(_ message: String) -> ControlReply { ControlReply(status: .failed, message: message) }
    /// Not understood.
    public static func badRequest(_ message: String) -> ControlReply {
        ControlReply(status: .badRequest, message: message)
    }

    /// The payload decoded as `type`.
    /// - Throws: `ControlMessageError` when there is no payload or it does not decode.
    public func decodePayload<T: Decodable>(as type: T.Type) throws(ControlMessageError) -> T {
        guard let payload else { throw ControlMessageError("the reply has no payload") }
        do {
            return try JSONDecoder().decode(type, from: payload)
        } catch {
            throw ControlMessageError("unexpected payload: \(error)")
        }
    }

    /// The reply as one line of JSON, newline included.
    public var line: [UInt8] {
        let payloadValue = payload.flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }
        return ControlJSON.line(Envelope(status: status, message: message, payload: payloadValue))
    }

    /// Decodes one line (without its newline).
    /// - Throws: `ControlMessageError` for anything but a well-formed reply.
    public init(line: [UInt8]) throws(ControlMessageError) {
        let envelope = try ControlJSON.decode(Envelope.self, line: line)
        let payload = envelope.payload.flatMap { $0 == .null ? nil : try? ControlJSON.encoder().encode($0) }
        self.init(status: envelope.status, message: envelope.message, payload: payload)
    }

    /// The reply as it travels; the payload is any JSON value, typed only by the receiver.
    private struct Envelope: Codable {
        var status: Status
        var message: String
        var payload: JSONValue?

        init(status: Status, message: String, payload: JSONValue?) {
            self.status = status
            self.message = message
            self.payload = payload
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard let statusName = try? container.decode(String.self, forKey: .status),
                let status = Status(rawValue: statusName)
            else {
                throw ControlMessageError("no known \"status\"")
            }
            guard let message = try? container.decode(String.self, forKey: .message) else {
                throw ControlMessageError("no \"message\"")
            }
            self.init(
                status: status, message: message,
                payload: try container.decodeIfPresent(JSONValue.self, forKey: .payload))
        }
    }
}
