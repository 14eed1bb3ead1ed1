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
    public var line: [UInt8] {
        var object: [String: Any] = ["request": name]
        switch self {
        case let .measure(limb, unscheduled, protocolName):
            if let limb { object["limb"] = limb }
            if unscheduled { object["unscheduled"] = true }
            if let protocolName { object["protocol"] = protocolName }
        case .exportDone(let files):
            object["files"] = files
        case .calibrate, .status:
            break
        }
        return ControlJSON.line(object)
    }

    /// Decodes one line (without its newline), strictly: exact types, no key twice, no key the
    /// request does not take.
    /// - Throws: `ControlMessageError` for anything but a known, well-formed request.
    public init(line: [UInt8]) throws(ControlMessageError) {
        let fields = try ControlRequestFields(line: line)
        guard case .string(let name)? = fields.values["request"] else {
            throw ControlMessageError(#"no "request" name"#)
        }
        switch name {
        case "measure":
            try fields.checkKeys(["limb", "unscheduled", "protocol"], of: name)
            let unscheduled: Bool
            switch fields.values["unscheduled"] {
            case nil: unscheduled = false
            case .bool(let flag)?: unscheduled = flag
            default: throw ControlMessageError("unscheduled must be true or false")
            }
            let protocolName: String?
            switch fields.values["protocol"] {
            case nil, .null?: protocolName = nil
            case .string(let name)? where ["extension", "arc"].contains(name): protocolName = name
            default: throw ControlMessageError("protocol must be extension or arc")
            }
            switch fields.values["limb"] {
            case nil, .null?: self = .measure(limb: nil, unscheduled: unscheduled, protocolName: protocolName)
            case .string(let limb)? where ["left", "right"].contains(limb):
                self = .measure(limb: limb, unscheduled: unscheduled, protocolName: protocolName)
            default: throw ControlMessageError("limb must be left or right")
            }
        case "calibrate":
            try fields.checkKeys([], of: name)
            self = .calibrate
        case "status":
            try fields.checkKeys([], of: name)
            self = .status
        case "export-done":
            try fields.checkKeys(["files"], of: name)
            switch fields.values["files"] {
            case nil: self = .exportDone(files: [])
            case .strings(let files)?: self = .exportDone(files: files)
            default: throw ControlMessageError("files must be a list of names")
            }
        default:
            throw ControlMessageError("unknown request '\(name.prefix(40))'")
        }
    }
}
