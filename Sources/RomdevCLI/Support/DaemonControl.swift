import ServiceSupport

/// The command line's link to a running daemon: the control socket in the runtime directory
/// (`$ROMDEV_RUNTIME_DIR`, else `/run/romdev`).
struct DaemonControl {
    let client: ControlClient

    init(environment: [String: String]) {
        client = ControlClient(path: ControlSocketLocation.path(environment: environment))
    }

    /// Sends `request` to the daemon.
    /// - Returns: The reply, or nil when no daemon runs (the caller may use the hardware itself).
    /// - Throws: `ControlClientError` when a daemon exists but could not be asked (permission,
    ///   busy, no reply).
    func sendIfRunning(_ request: ControlRequest) throws(ControlClientError) -> ControlReply? {
        do {
            return try client.send(request)
        } catch  where error.isNoDaemon {
            return nil
        }
    }

    /// Has the running daemon do `request`, for a command that needs the sensor or the GPIO
    /// lines, which the daemon holds while it runs.
    /// - Parameter what: What the command does, phrased as a failure: "could not measure …".
    /// - Returns: The daemon's successful reply, or nil when no daemon runs.
    /// - Throws: `CommandFailure` when the daemon is busy, refused or failed, or cannot be reached.
    func forward(_ request: ControlRequest, doing what: String) throws -> ControlReply? {
        let reply: ControlReply?
        do {
            reply = try sendIfRunning(request)
        } catch {
            throw CommandFailure(what, why: "\(error)", hint: error.hint)
        }
        guard let reply else { return nil }
        switch reply.status {
        case .ok:
            return reply
        case .busy:
            throw CommandFailure(
                what, why: "the romdev daemon is busy: \(reply.message)",
                hint: "wait until it has finished and try again")
        case .failed, .badRequest:
            throw CommandFailure(what, why: "the romdev daemon: \(reply.message)")
        }
    }
}

extension ControlClientError: HintedError {}
