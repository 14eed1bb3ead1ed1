import Foundation

/// A request to the running daemon over its control socket, one JSON object per line:
///
///     {"request":"measure","limb":"left","unscheduled":true,"protocol":"arc"}   all optional
///     {"request":"calibrate"}
///     {"request":"status"}
///     {"request":"export-done","files":["romdev-….csv","romdev-….json"]}
///
/// Each connection carries one request and gets one ``ControlReply``.
public enum ControlRequest: Equatable, Sendable {
    /// Run a measurement now on `limb` (`left` or `right`), or on the care plan's limb when nil;
    /// on today's scheduled event, or, when `unscheduled`, on the day's event of the
    /// unscheduled-measurement task (as `romdev measure --unscheduled`); following
    /// `protocolName` (`extension` or `arc`), or the daemon's own rule when nil.
    case measure(limb: String?, unscheduled: Bool = false, protocolName: String? = nil)
    /// Run the calibration procedure.
    case calibrate
    /// Report what the daemon is doing.
    case status
    /// An export to a USB stick finished with `files`; the daemon gives the "done" cue.
    case exportDone(files: [String])

    /// The request's name on the wire: `measure`, `calibrate`, `status`, `export-done`.
    public var name: String {
        switch self {
        case .measure: return "measure"
        case .calibrate: return "calibrate"
        case .status: return "status"
        case .exportDone: return "export-done"
        }
    }

    /// How long a client waits for the reply by default, in nanoseconds: measurement and
    /// calibration wait for a person to move the leg or the sensor.
    public var defaultReplyTimeoutNanoseconds: UInt64 {
        switch self {
        case .measure: return 180 * 1_000_000_000
        case .calibrate: return 600 * 1_000_000_000
        case .status, .exportDone: return 10 * 1_000_000_000
        }
    }

    /// The request as one line of JSON, newline included.
    public var line: [UInt8] { ControlJSON.line(self) }

    /// Decodes one line (without its newline), strictly: exact types, no key the request does
    /// not take.
    /// - Throws: `ControlMessageError` for anything but a known, well-formed request.
    public init(line: [UInt8]) throws(ControlMessageError) {
        self = try ControlJSON.decode(ControlRequest.self, line: line)
    }
}

extension ControlRequest: Codable {
    /// The keys each request takes besides `request`.
    private static func keys(of name: String) -> Set<String>? {
        switch name {
        case "measure": return ["limb", "unscheduled", "protocol"]
        case "calibrate", "status": return []
        case "export-done": return ["files"]
        default: return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        guard let name = try? container.decode(String.self, forKey: AnyKey("request")) else {
            throw ControlMessageError(#"no "request" name"#)
        }
        guard let allowed = Self.keys(of: name) else {
            throw ControlMessageError("unknown request '\(name.prefix(40))'")
        }
        if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: {
            $0 != "request" && !allowed.contains($0)
        }) {
            throw ControlMessageError("unknown key \"\(unknown)\" in a \(name) request")
        }
        /// The value at `key`, nil when absent or null, refused with `reason` unless `valid`.
        func field<Value: Decodable>(
            _ key: String, _ type: Value.Type, _ reason: String, valid: (Value) -> Bool = { _ in true }
        ) throws -> Value? {
            let decoded: Value?
            do {
                decoded = try container.decodeIfPresent(type, forKey: AnyKey(key))
            } catch {
                throw ControlMessageError(reason)
            }
            guard let value = decoded else { return nil }
            guard valid(value) else { throw ControlMessageError(reason) }
            return value
        }
        switch name {
        case "measure":
            let unscheduled = try field("unscheduled", Bool.self, "unscheduled must be true or false") ?? false
            let protocolName = try field("protocol", String.self, "protocol must be extension or arc") {
                ["extension", "arc"].contains($0)
            }
            let limb = try field("limb", String.self, "limb must be left or right") { ["left", "right"].contains($0) }
            self = .measure(limb: limb, unscheduled: unscheduled, protocolName: protocolName)
        case "calibrate":
            self = .calibrate
        case "status":
            self = .status
        default:
            self = .exportDone(files: try field("files", [String].self, "files must be a list of names") ?? [])
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(name, forKey: AnyKey("request"))
        switch self {
        case let .measure(limb, unscheduled, protocolName):
            try container.encodeIfPresent(limb, forKey: AnyKey("limb"))
            if unscheduled { try container.encode(true, forKey: AnyKey("unscheduled")) }
            try container.encodeIfPresent(protocolName, forKey: AnyKey("protocol"))
        case .exportDone(let files):
            try container.encode(files, forKey: AnyKey("files"))
        case .calibrate, .status:
            break
        }
    }
}
