import CareStorage
import Foundation
import Fusion
import GPIO
import ServiceSupport

extension ApplianceDaemon {
    /// Button events: a short press starts a measurement (or, during one, ends it with the result
    /// so far); a long press cancels one.
    func handle(_ event: ButtonEvent) {
        switch event {
        case .pressed:
            break
        case .longPressReached:
            if let running = calibration {
                running.run.abort()
                log(.info, "calibration cancelled by a long press")
            }
            guard let running = session else { return }
            running.measurement.abort()
            log(.info, "measurement cancelled by a long press")
        case .released(let press):
            guard press.kind == .short, calibration == nil else { return }
            if let running = session {
                running.measurement.stop()
                log(.info, "button: ending the measurement with the result so far")
                return
            }
            log(.info, "button pressed")
            if let refusal = startMeasurement(request: nil, limb: nil, measurementProtocol: nil, at: parts.wallClock.now) {
                log(.warning, "no measurement: \(refusal)")
            }
        }
    }

    /// Starts a measurement on today's open range-of-motion event.
    /// - Parameters:
    ///   - limb: The limb to record (`left`, `right`); nil for the care plan's.
    ///   - measurementProtocol: What the request asks for; nil for the configuration's, else the
    ///     care plan's.
    /// - Returns: Why it could not start, or nil when it did.
    func startMeasurement(
        request: PendingControlRequest?, limb: String?, measurementProtocol requested: MeasurementProtocol?, at wall: Date
    ) -> String? {
        refresh(at: wall)
        let slot: CareDayStatus.MeasurementSlot
        switch dayStatus {
        case .measurementDue(let open):
            slot = open
        case .measurementDone:
            showTransient(.success, for: 3_000_000_000)
            return "today's measurement is already stored"
        case .onboardingPending, .noCarePlan, .nothingScheduled:
            play(.error)
            return storeProblem.map { "care store unreadable: \($0)" } ?? dayStatus.summary
        }
        if sensorProblem != nil { probeSensor() }
        if let sensorProblem {
            play(.error)
            return "motion sensor missing on \(parts.sensor.location): \(sensorProblem)"
        }
        let plan = try? parts.store.carePlanSettings()
        // The request's protocol, else the configuration's, else what the care plan asks for.
        let measurementProtocol = requested ?? settings.configuration.measurementProtocol
            ?? MeasurementProtocol(plan?.rangeOfMotionProtocol ?? .extension)
        let measurement: any GuidedMeasurement
        do {
            measurement = try parts.measurements.startMeasurement(measurementProtocol)
        } catch {
            sensorProblem = "\(error)"
            lastSensorProbe = now
            play(.error)
            return "cannot start the sensor: \(error)"
        }
        session = RunningSession(
            measurement: measurement, slot: slot, request: request,
            limb: limb ?? plan?.limb.rawValue)
        shownPattern = nil
        transientPattern = nil
        log(.notice, "measurement started (\(measurementProtocol.rawValue))\(request == nil ? "" : " (requested over the control socket)")")
        return nil
    }

    /// Turns the running session's events into cues, and stores its result.
    func pollSession(at wall: Date) {
        guard var running = session else { return }
        for event in running.measurement.takeEvents() {
            switch event {
            case .holdStill:
                running.phase = "hold still"
                play(.holdStill)
                log(.info, "hold still")
            case .go:
                running.phase = "extend the knee"
                play(.go)
                log(.info, "go: extend the knee")
            case .moving:
                running.phase = "moving"
            case .flex:
                running.phase = "slide the foot back under the chair"
                play(.flex)
                log(.info, "go: slide the foot back under the chair")
            case .finished(let result):
                session = nil
                finish(running, with: result, at: parts.wallClock.now)
                return
            case .failed(let reason, let sensorFault):
                session = nil
                measurementsEnded += 1
                if sensorFault {
                    sensorProblem = reason
                    lastSensorProbe = now
                }
                fail(running, "measurement failed: \(reason); nothing stored", code: .measurementFailed)
                return
            case .aborted:
                session = nil
                measurementsEnded += 1
                log(.notice, "measurement cancelled; nothing stored")
                running.request?.reply(.failed("the measurement was cancelled; nothing stored"))
                refreshRequested = true
                return
            }
        }
        session = running
    }

    /// Stores the result, then (only once it is durable) gives the success cue.
    func finish(_ running: RunningSession, with result: RangeOfMotionResult, at wall: Date) {
        measurementsEnded += 1
        refreshRequested = true
        if let rejection = result.rejection {
            fail(running, "measurement not usable: \(rejection); nothing stored, please measure again", code: .measurementFailed)
            return
        }
        let outcome = NewOutcome(
            taskUUID: running.slot.taskUUID, occurrence: running.slot.occurrence,
            values: result.outcomeValues(limb: running.limb, createdDate: wall))
        do {
            try parts.store.addOutcome(outcome, now: wall)
        } catch {
            fail(running, "could not store the measurement in \(parts.store.path): \(error)", code: .storageFailure)
            return
        }
        // The write is committed (synchronous=FULL): only now may the patient hear "done".
        log(.notice, "stored \(result.summary)\(result.flags.isEmpty ? "" : "; flags: " + result.flags.names.joined(separator: ", "))")
        play(.done)
        showTransient(.success, for: 3_000_000_000)
        if let request = running.request {
            request.reply((try? .ok("stored \(result.summary)", payload: MeasurementReplyPayload(result))) ?? .ok("stored \(result.summary)"))
        }
    }

    func fail(_ running: RunningSession, _ message: String, code: FaultCode) {
        log(.error, message)
        play(.error)
        showTransient(.fault(code), for: settings.timing.faultCueNanoseconds)
        running.request?.reply(.failed(message))
    }
}

/// The result a `measure` request gets back.
struct MeasurementReplyPayload: Encodable {
    let start, finish, minimum, maximum, range: Double
    let kneeExtension, kneeFlexion, kneeArc: Double
    let measurementProtocol: String
    let flags: [String]

    enum CodingKeys: String, CodingKey {
        case start, finish, minimum, maximum, range
        case kneeExtension = "knee_extension", kneeFlexion = "knee_flexion", kneeArc = "knee_arc"
        case measurementProtocol = "protocol"
        case flags
    }

    init(_ result: RangeOfMotionResult) {
        start = result.start
        finish = result.finish
        minimum = result.minimum
        maximum = result.maximum
        range = result.range
        kneeExtension = result.kneeExtension
        kneeFlexion = result.kneeFlexion
        kneeArc = result.kneeArc
        measurementProtocol = result.measurementProtocol.rawValue
        flags = result.flags.names
    }
}
