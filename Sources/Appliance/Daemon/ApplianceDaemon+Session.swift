import CareStorage
import Foundation
import Fusion
import GPIO
import Sensor
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
            do {
                try startMeasurement(
                    .scheduled, request: nil, limb: nil, measurementProtocol: nil, at: parts.wallClock.now)
            } catch {
                log(.warning, "no measurement: \(error)")
            }
        }
    }

    /// Starts a measurement, once the store said where it will go (the rules of
    /// ``CareStore/measurementTarget(_:at:)``, which `romdev measure` follows too).
    /// - Parameters:
    ///   - task: Today's scheduled event, or the unscheduled task's.
    ///   - limb: The limb to record; nil for the care plan's.
    ///   - measurementProtocol: What the request asks for; nil for the configuration's, else the
    ///     care plan's.
    func startMeasurement(
        _ task: MeasurementTask, request: PendingControlRequest?, limb: Limb?,
        measurementProtocol requested: MeasurementProtocol?, at wall: Date
    ) throws(MeasurementRefusal) {
        refresh(at: wall)
        let target: MeasurementTarget
        do {
            target = try parts.store.measurementTarget(task, at: wall)
        } catch {
            if case .alreadyRecorded = error {
                showTransient(.success, for: 3_000_000_000)
            } else {
                play(.error)
            }
            throw .store(error)
        }
        do throws(SensorRefusal) {
            try checkSensor()
        } catch {
            play(.error)
            throw .sensor(error)
        }
        let plan = try? parts.store.carePlanSettings()
        // The request's protocol, else the configuration's, else what the care plan asks for.
        let measurementProtocol =
            requested ?? settings.configuration.measurementProtocol
            ?? MeasurementProtocol(plan?.rangeOfMotionProtocol ?? .extension)
        let measurement: any GuidedRun<GuidedMeasurementEvent>
        do {
            measurement = try parts.measurements.startMeasurement(measurementProtocol)
        } catch {
            throw .sensor(sensorDidNotStart(error))
        }
        session = RunningSession(measurement: measurement, target: target, request: request, limb: limb)
        shownPattern = nil
        transientPattern = nil
        let origin = request == nil ? "" : " (requested over the control socket)"
        log(
            .notice,
            "measurement started (\(measurementProtocol.rawValue)\(task == .unscheduled ? ", unscheduled" : ""))\(origin)"
        )
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
            case .failed(let error):
                session = nil
                measurementsEnded += 1
                if case .sensor(let fault, _) = error {
                    sensorProblem = fault
                    lastSensorProbe = now
                }
                fail(running, "measurement failed: \(error); nothing stored", code: .measurementFailed)
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
        do {
            try parts.store.recordMeasurement(result, on: running.target, limb: running.limb, at: wall)
        } catch .unusable(let reason) {
            fail(
                running, "measurement not usable: \(reason); nothing stored, please measure again",
                code: .measurementFailed)
            return
        } catch {
            fail(running, "could not store the measurement in \(parts.store.path): \(error)", code: .storageFailure)
            return
        }
        // The write is committed (synchronous=FULL): only now may the patient hear "done".
        log(
            .notice,
            "stored \(result.summary)\(result.flags.isEmpty ? "" : "; flags: " + result.flags.names.joined(separator: ", "))"
        )
        play(.done)
        showTransient(.success, for: 3_000_000_000)
        if let request = running.request {
            request.reply((try? .ok("stored \(result.summary)", payload: result)) ?? .ok("stored \(result.summary)"))
        }
    }

    func fail(_ running: RunningSession, _ message: String, code: FaultCode) {
        log(.error, message)
        play(.error)
        showTransient(.fault(code), for: settings.timing.faultCueNanoseconds)
        running.request?.reply(.failed(message))
    }
}

/// Why the daemon did not start a measurement.
public enum MeasurementRefusal: Error, CustomStringConvertible {
    /// The store would not record it (nothing due, already recorded, onboarding not done, no
    /// care plan) or could not be read.
    case store(MeasurementRecordingError)
    /// The sensor is missing or could not be started.
    case sensor(SensorRefusal)

    public var description: String {
        switch self {
        case .store(let error): "\(error)"
        case .sensor(let refusal): "\(refusal)"
        }
    }
}

/// Why the sensor cannot run a guided procedure (a measurement, a calibration) now.
public enum SensorRefusal: Error, CustomStringConvertible {
    /// The sensor did not answer its last probe.
    case missing(location: String, fault: MPU6050Error)
    /// The sensor could not be opened or configured.
    case cannotStart(MPU6050Error)

    public var description: String {
        switch self {
        case let .missing(location, fault): "motion sensor missing on \(location): \(fault)"
        case .cannotStart(let error): "cannot start the sensor: \(error)"
        }
    }
}

extension ApplianceDaemon {
    /// The reply to a request for the sensor while a procedure holds it.
    var busyReply: ControlReply {
        .busy(session != nil ? "a measurement is running" : "a calibration is running")
    }

    /// Probes the sensor again when its last probe failed.
    /// - Throws: ``SensorRefusal/missing(location:fault:)`` while it does not answer.
    func checkSensor() throws(SensorRefusal) {
        if sensorProblem != nil { probeSensor() }
        if let sensorProblem { throw .missing(location: parts.sensor.location, fault: sensorProblem) }
    }

    /// Notes a sensor that could not be opened for a procedure, with the error chime: it is
    /// probed again before the next use.
    func sensorDidNotStart(_ error: MPU6050Error) -> SensorRefusal {
        sensorProblem = error
        lastSensorProbe = now
        play(.error)
        return .cannotStart(error)
    }
}
