import Foundation
import GPIO
import ServiceSupport

extension ApplianceDaemon {
    /// Answers the control requests that arrived: status at once, measurements when they end,
    /// an export's "done" with the success cue.
    func serveRequests(at wall: Date) {
        guard let source = parts.requests else { return }
        for pending in source.takeRequests() {
            switch pending.request {
            case .status:
                pending.reply(.ok(statusLine(at: wall)))
            case .measure(let limb, let unscheduled):
                if session != nil {
                    pending.reply(.busy("a measurement is running"))
                } else if unscheduled {
                    pending.reply(.failed(
                        "the daemon records only today's scheduled measurement; for an unscheduled one stop it (systemctl stop romdev) and run 'romdev measure --unscheduled'"))
                } else if let refusal = startMeasurement(request: pending, limb: limb, at: wall) {
                    log(.warning, "measurement request refused: \(refusal)")
                    pending.reply(.failed(refusal))
                }
            case .calibrate:
                pending.reply(.failed(
                    "calibration needs the sensor to itself: stop the daemon (systemctl stop romdev), run 'romdev calibrate', then start it again"))
            case .exportDone(let files):
                log(.notice, "export finished: \(files.count) file\(files.count == 1 ? "" : "s"); the stick may be removed")
                if session == nil {
                    play(.done)
                    showTransient(.success, for: 3_000_000_000)
                }
                pending.reply(.ok("done cue given"))
            }
        }
    }
}
