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
    public enum Status: String, Sendable, CaseIterable {
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ControlReply(status: .ok, message: message, payload: try encoder.encode(payload))
    }

    /// Success without a payload.
    public static func ok(_ message: String) -> ControlReply { ControlReply(status: .ok, message: message) }
    /// Refused because the daemon is doing something else.
    public static func busy(_ message: String) -> ControlReply { ControlReply(status: .busy, message: message) }
    /// Tried and failed.
    public static func failed(_ message: String) -> ControlReply { ControlReply(status: .failed, message: message) }
    /// Not understood.
    public static func badRequest(_ message: String) -> ControlReply { ControlReply(status: .badRequest, message: message) }

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
        var object: [String: Any] = ["status": status.rawValue, "message": message]
        if let payload, let value = try? JSONSerialization.jsonObject(with: payload, options: [.fragmentsAllowed]) {
            object["payload"] = value
        }
        return ControlJSON.line(object)
    }

    /// Decodes one line (without its newline).
    /// - Throws: `ControlMessageError` for anything but a well-formed reply.
    public init(line: [UInt8]) throws(ControlMessageError) {
        let object = try ControlJSON.object(line)
        guard let statusName = object["status"] as? String, let status = Status(rawValue: statusName) else {
            throw ControlMessageError("no known \"status\"")
        }
        guard let message = object["message"] as? String else { throw ControlMessageError("no \"message\"") }
        var payload: Data?
        if let value = object["payload"], !(value is NSNull) {
            payload = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        }
        self.init(status: status, message: message, payload: payload)
    }
}
