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
    func sendIfRunning(_ request: ControlRequest, replyTimeoutNanoseconds: UInt64? = nil) throws(ControlClientError) -> ControlReply? {
        do {
            return try client.send(request, replyTimeoutNanoseconds: replyTimeoutNanoseconds)
        } catch where error.isNoDaemon {
            return nil
        }
    }
}

extension ControlClientError: HintedError {}
