import CareStorage
import Foundation
import Fusion
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
            case .measure(let limb, let unscheduled, let protocolName):
                if isBusy {
                    pending.reply(busyReply)
                } else {
                    do {
                        try startMeasurement(
                            unscheduled ? .unscheduled : .scheduled, request: pending,
                            limb: limb.flatMap(Limb.init(rawValue:)),
                            measurementProtocol: protocolName.flatMap(MeasurementProtocol.init(rawValue:)), at: wall)
                    } catch {
                        log(.warning, "measurement request refused: \(error)")
                        pending.reply(.failed("\(error)"))
                    }
                }
            case .calibrate:
                startCalibration(pending)
            case .exportDone(let files):
                log(
                    .notice,
                    "export finished: \(files.count) file\(files.count == 1 ? "" : "s"); the stick may be removed")
                if !isBusy {
                    play(.done)
                    showTransient(.success, for: 3_000_000_000)
                }
                pending.reply(.ok("done cue given"))
            }
        }
    }
}

extension ApplianceDaemon {
    /// Starts a calibration for a control request, or answers why not.
    func startCalibration(_ pending: PendingControlRequest) {
        if isBusy {
            pending.reply(busyReply)
            return
        }
        guard let calibrations = parts.calibrations else {
            pending.reply(
                .failed("this daemon does not calibrate; stop it (systemctl stop romdev) and run 'romdev calibrate'"))
            return
        }
        do throws(SensorRefusal) {
            try checkSensor()
        } catch {
            pending.reply(.failed("\(error)"))
            return
        }
        do {
            calibration = RunningCalibration(run: try calibrations.startCalibration(), request: pending)
            shownPattern = nil
            transientPattern = nil
            log(.notice, "calibration started (requested over the control socket)")
        } catch {
            let refusal = sensorDidNotStart(error)
            log(.warning, "calibration not started: \(error)")
            pending.reply(.failed("\(refusal)"))
        }
    }

    /// Turns the calibration's steps into cues; answers the request when it ends.
    func pollCalibration() {
        guard var running = calibration else { return }
        for event in running.run.takeEvents() {
            switch event {
            case .holdStill:
                running.step = "lay the sensor flat and still"
                play(.holdStill)
            case .nextFace(let captured):
                running.step =
                    captured < 6
                    ? "face \(captured) of 6 done, turn it \(GuidedCalibration.faceOrder[captured]) up"
                    : "all six faces done, turn it back \(GuidedCalibration.faceOrder[6]) up"
                play(.go)
            case .retakeFace(let face):
                running.step = "samples were lost in a tip, turn it \(face) up to make it again"
                play(.go)
            case .wrongFace(let up, let asked, let after):
                running.step = "its \(up) side is up, not \(asked): turn it back \(after) up, then tip it \(asked) up"
                play(.error)
            case .strapOn:
                running.step = "strap it on the shin and hold still"
                play(.holdStill)
            case .swing:
                running.step = "extend the knee once"
                play(.go)
            case .saved(let summary):
                calibration = nil
                log(.notice, "calibration saved: \(summary)")
                play(.done)
                showTransient(.success, for: 3_000_000_000)
                running.request.reply(.ok("calibration saved: \(summary)"))
                return
            case .failed(let reason):
                calibration = nil
                log(.error, "calibration failed: \(reason)")
                play(.error)
                showTransient(.fault(.measurementFailed), for: settings.timing.faultCueNanoseconds)
                running.request.reply(.failed("calibration failed: \(reason)"))
                return
            case .aborted:
                calibration = nil
                log(.notice, "calibration cancelled")
                running.request.reply(.failed("the calibration was cancelled"))
                return
            }
            log(.info, "calibration: \(running.step)")
        }
        calibration = running
    }
}
