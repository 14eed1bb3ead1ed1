import Foundation

/// A request to the running daemon over its control socket, one JSON object per line:
///
///     {"request":"measure","limb":"left"}      limb optional: the store's limb when absent
///     {"request":"calibrate"}
///     {"request":"status"}
///     {"request":"export-done","files":["romdev-….csv","romdev-….json"]}
///
/// Each connection carries one request and gets one ``ControlReply``.
public enum ControlRequest: Equatable, Sendable {
    /// Run a measurement now, outside the schedule, on `limb` (`left` or `right`), or on the
    /// store's limb when nil.
    case measure(limb: String?)
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
        case .measure(let limb):
            if let limb { object["limb"] = limb }
        case .exportDone(let files):
            object["files"] = files
        case .calibrate, .status:
            break
        }
        return ControlJSON.line(object)
    }

    /// Decodes one line (without its newline).
    /// - Throws: `ControlMessageError` for anything but a known, well-formed request.
    public init(line: [UInt8]) throws(ControlMessageError) {
        let object = try ControlJSON.object(line)
        guard let name = object["request"] as? String else { throw ControlMessageError("no \"request\" name") }
        switch name {
        case "measure":
            let limb = object["limb"]
            if limb == nil || limb is NSNull {
                self = .measure(limb: nil)
            } else if let limb = limb as? String, ["left", "right"].contains(limb) {
                self = .measure(limb: limb)
            } else {
                throw ControlMessageError("limb must be left or right")
            }
        case "calibrate":
            self = .calibrate
        case "status":
            self = .status
        case "export-done":
            guard let files = (object["files"] ?? [String]()) as? [String] else {
                throw ControlMessageError("files must be a list of names")
            }
            self = .exportDone(files: files)
        default:
            throw ControlMessageError("unknown request '\(name)'")
        }
    }
}
