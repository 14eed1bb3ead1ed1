import Foundation
import Fusion
import LinuxSystem
import Sampling
import Sensor

extension Command {
    /// `romdev calibrate`: the guided sensor calibration, saved next to the store.
    static let calibrate = Command(
        name: "calibrate",
        abstract: "Calibrate the sensor and its mounting on the shin, step by step.",
        discussion: """
            A guided procedure that moves on by itself whenever the sensor is still in a new
            position; no key needs pressing:

              1. Lay the sensor flat on a table and leave it still (--seconds, default 3):
                 the gyro bias. Any movement refuses the calibration.
              2. Tip it over an edge onto each of its other five faces in turn, holding each
                 still for about 3 s, then once more onto a face used before, so that each of
                 its axes is turned about twice from faces at right angles. From face up
                 (+z up): +y up, -z up, +x up, -y up, -x up, and back to -z up; the prompts
                 name each. The still faces give the accelerometer offset and sensitivity;
                 the turns give the gyro's full correction (sensitivity, cross-axis and
                 misalignment) and the accelerometer's cross-axis terms.
              3. Strap it to the front of the shin below the knee, sit with the foot on the
                 floor (shin vertical) and hold still: the shin axis.
              4. Extend the knee once, lower it and hold still: the knee's hinge axis.

            The result is written atomically as JSON (format version 2: offsets and a 3×3
            correction matrix for each sensor; version 1 files are still read) to
            --calibration PATH, else to calibration.json in the care store's directory,
            where 'measure', 'replay' and 'doctor' find it. On a refusal or failure the
            existing file is left unchanged. --simulate runs the simulated 'calibration'
            scenario in real time (about a minute).

            --replay FILE runs the same procedure over a recording in the 'romdev record'
            format instead of the sensor (for example one made with 'romdev record
            --simulate=calibration --seconds 70') and saves the same file. A recording that
            ends before the procedure is complete names the step it ended in; a malformed
            one names its line.

            While the romdev daemon runs it holds the sensor, so the calibration is asked of
            it (through its control socket) and its reply is printed; a daemon that is busy,
            refuses or cannot be reached is an error that says so. --simulate never asks the
            daemon.
            """,
        options: [CalibrateAction.secondsOption, CalibrateAction.replayOption]
            + SensorSource.options(defaultScenario: "calibration")
            + [CalibrationFile.option] + StoreOptions.options,
        make: { values in
            let seconds = try values.value(CalibrateAction.secondsOption) { text -> Double? in
                guard let seconds = NumberArgument.decimal(text), (1...60).contains(seconds) else { return nil }
                return seconds
            }
            let source = try SensorSource(values, defaultScenario: "calibration")
            let replay = try values.value(CalibrateAction.replayOption, PathArgument.file)
            if replay != nil, values.isSet(SensorSource.simulateOption) {
                throw UsageError("'--replay' reads a recording; it does not combine with '--simulate'")
            }
            return CalibrateAction(
                biasSeconds: seconds ?? 3, source: source, replayPath: replay,
                calibrationPath: try values.value(CalibrationFile.option, PathArgument.file),
                store: try StoreOptions(values))
        })
}

/// `romdev calibrate [--seconds N] [--replay FILE] [--calibration PATH]` with its sensor and store options.
struct CalibrateAction: CommandAction, Equatable {
    static let secondsOption = Option.value(
        "seconds", valueName: "seconds", help: "How long the sensor lies still for the gyro bias: 1 to 60 (default 3).")
    static let replayOption = Option.value(
        "replay", valueName: "file", help: "Calibrate from a recording in the 'romdev record' CSV format.")

    var biasSeconds: Double
    var source: SensorSource
    /// A recording to calibrate from instead of the sensor.
    var replayPath: String?
    var calibrationPath: String?
    var store: StoreOptions

    func run(in context: CommandContext) throws {
        if replayPath == nil, case .hardware = source.device,
            let reply = try DaemonControl(environment: context.environment).forward(
                .calibrate, doing: "could not calibrate the sensor")
        {
            context.output.line("Calibrated by the romdev daemon: \(reply.message)")
            return
        }
        let file = try CalibrationFile(explicitPath: calibrationPath, store: store, in: context)
        let calibration: Calibration
        if let replayPath {
            context.output.line("Calibrating from the recording \(replayPath); the result goes to \(file.path).")
            calibration = try calibrateRecording(at: replayPath, output: context.output)
        } else {
            context.output.line("Calibrating the sensor on \(source.label); the result goes to \(file.path).")
            calibration = try calibrateSensor(clock: context.sensorClock, output: PromptOutput(context.output))
        }
        try attempt("could not save the calibration to \(file.path)") {
            let directory = FilePath(file.path).directory
            if directory != "." {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            try file.save(calibration)
        }
        context.output.write(Self.summary(calibration))
        context.output.line("Saved to \(file.path).")
    }

    /// The procedure on the sensor, apart from the file: bring-up, the guided steps on the
    /// sampling loop, one prompt line per step.
    /// - Parameter clock: The simulated sensor's clock, or nil for real time.
    /// - Throws: `CommandFailure` when the sensor cannot be brought up or fails, or the procedure
    ///   refuses (the device moved, a step timed out, an implausible fit).
    func calibrateSensor(clock sensorClock: (any MonotonicClock)?, output: PromptOutput) throws -> Calibration {
        let clock = sensorClock ?? SystemClock()
        let sensors = try source.openConfiguredSensors(clock: clock).sensors
        var parameters = GuidedCalibration.Parameters()
        parameters.biasSeconds = biasSeconds
        let seconds = biasSeconds
        do {
            return try CalibrationRun(
                sensor: sensors.shank, thigh: sensors.thigh, parameters: parameters,
                pacing: sensorClock == nil ? .dispatchTimer : .sleeping(clock),
                onStep: { step in output.line(Self.prompt(for: step, biasSeconds: seconds)) }
            ).run()
        } catch {
            switch error {
            case .procedure(.moved(let gyro, let acceleration)):
                throw CommandFailure(
                    "calibration refused",
                    why: CalibrationError.moved(gyroDeviation: gyro, accelerationDeviation: acceleration).description,
                    hint: "lay the sensor flat on a table, leave it still and run 'romdev calibrate' again")
            case .procedure(let refusal):
                throw CommandFailure(
                    "calibration refused", why: refusal.description, hint: "run 'romdev calibrate' again")
            case .sensor(let sensorError):
                throw CommandFailure("calibration failed", why: sensorError.description, hint: sensorError.hint)
            case .aborted:
                throw CommandFailure("calibration failed", why: error.description)
            }
        }
    }

    /// The procedure over a recording: every sample through the same ``GuidedCalibration``, one
    /// prompt line per step with the time in the recording it began.
    /// - Throws: `CommandFailure` when the file cannot be read or parsed (naming the line), the
    ///   procedure refuses, or the recording ends before the procedure is complete (naming the step).
    func calibrateRecording(at path: String, output: TextOutput) throws -> Calibration {
        let recording: Recording
        do {
            recording = try Recording(csv: try ReplayAction.readText(at: path))
        } catch let error as RecordingError {
            throw CommandFailure(
                "\(path) is not a valid recording", why: error.description,
                hint: "calibrate --replay reads the CSV files 'romdev record' writes")
        }
        var parameters = GuidedCalibration.Parameters()
        parameters.biasSeconds = biasSeconds
        var procedure = GuidedCalibration(parameters: parameters)
        output.line(Self.prompt(for: procedure.step, biasSeconds: biasSeconds))
        for sample in recording.samples {
            let before = procedure.step
            do throws(CalibrationError) {
                try procedure.update(sample)
            } catch {
                throw CommandFailure(
                    "calibration refused", why: "at \(fixed(sample.time, 2)) s in the recording: \(error.description)",
                    hint: "record the procedure again")
            }
            if procedure.step != before {
                output.line(
                    "At \(fixed(sample.time, 2)) s: " + Self.prompt(for: procedure.step, biasSeconds: biasSeconds))
            }
            if procedure.step == .finished { break }
        }
        guard let calibration = procedure.calibration, procedure.step == .finished else {
            throw CommandFailure(
                "calibration incomplete",
                why:
                    "the recording ends (at \(fixed(recording.samples[recording.samples.count - 1].time, 2)) s) during step "
                    + Self.stepName(procedure.step),
                hint: "record the whole procedure, from lying still to the knee swing and back")
        }
        return calibration
    }

    /// The step's number and what it waits for, for a recording that ends in it.
    static func stepName(_ step: GuidedCalibration.Step) -> String {
        switch step {
        case .holdStill: "1, lying still for the gyro bias"
        case .nextFace(let captured): "2, the faces (\(captured) of \(Calibration.facePoses) poses taken)"
        case .strapOn: "3, the strapped start pose"
        case .swing: "4, the knee swing and the rest after it"
        case .finished: "none"
        }
    }

    static func prompt(for step: GuidedCalibration.Step, biasSeconds: Double) -> String {
        switch step {
        case .holdStill: "1. Lay the sensor flat on a table and leave it still for \(fixed(biasSeconds, 0)) s..."
        case .nextFace(let captured) where captured < 6:
            "2. Face \(captured) of 6 done. Tip the sensor over an edge so that its "
                + "\(GuidedCalibration.faceOrder[captured]) side is up, and hold it still."
        case .nextFace:
            "2. All six faces done. Tip it over one more edge, back to \(GuidedCalibration.faceOrder[6]) up, "
                + "and hold it still."
        case .strapOn:
            "3. Table part done. Strap the sensor to the front of your shin below the knee, sit with the foot "
                + "on the floor and hold still."
        case .swing: "4. Start pose taken. Extend your knee once, lower it back and hold still."
        case .finished: "Done."
        }
    }

    static func summary(_ calibration: Calibration) -> String {
        func vector(_ v: Vector3, _ digits: Int) -> String {
            "(\(fixed(v.x, digits)), \(fixed(v.y, digits)), \(fixed(v.z, digits)))"
        }
        var lines = [
            "Gyro bias             \(vector(calibration.gyroBias, 3)) °/s",
            "Gyro correction       \(vector(calibration.gyroMatrix.row0, 4))",
            "                      \(vector(calibration.gyroMatrix.row1, 4))",
            "                      \(vector(calibration.gyroMatrix.row2, 4))",
            "Accelerometer offset  \(vector(calibration.accelerometerOffset, 4)) g",
            "Accelerometer corr.   \(vector(calibration.accelerometerMatrix.row0, 4))",
            "                      \(vector(calibration.accelerometerMatrix.row1, 4))",
            "                      \(vector(calibration.accelerometerMatrix.row2, 4))",
        ]
        if let mounting = calibration.mounting {
            lines.append("Shin axis             \(vector(mounting.shinAxis, 3)) (sensor axes)")
            lines.append("Knee hinge axis       \(vector(mounting.hingeAxis, 3))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Prompts are written from the sampling loop's queue while the command's thread waits for the
/// session, so the output is never used from two threads at once.
final class PromptOutput: @unchecked Sendable {
    private let output: TextOutput

    init(_ output: TextOutput) {
        self.output = output
    }

    func line(_ text: String) {
        output.line(text)
    }
}
