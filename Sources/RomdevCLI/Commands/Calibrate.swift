import Foundation
import Fusion
import LinuxSystem
import Sampling
import Sensor

extension Command {
    /// `romdev calibrate`: the guided sensor calibration, saved next to the store.
    static let calibrate = Command(
        name: "calibrate",
        abstract: "Calibrate the sensors and how they sit on the leg, step by step.",
        discussion: """
            A guided procedure that moves on by itself whenever the sensor is still in a new
            position; no key needs pressing:

              1. Lay the sensor flat on a table and leave it still (--seconds, default 3):
                 the gyro bias. Any movement refuses the calibration.
              2. Tip it over an edge onto each of its other five faces in turn, holding each
                 still for about 3 s, then once more onto a face used before, so that each of
                 its axes is turned about twice from faces at right angles. From face up
                 (+z up): +y up, -z up, +x up, -y up, -x up, and back to -z up; the prompts
                 name each, and a face other than the one named is not taken (the prompt
                 says which side is up). The still faces give the accelerometer offset and sensitivity;
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
            scenario in real time (about a minute); with --hinge, the 'knee-swings' scenario
            with the thigh's board fitted at 0x69.

            --replay FILE runs the same procedure over a recording in the 'romdev record'
            format instead of the sensor (for example one made with 'romdev record
            --simulate=calibration --seconds 70') and saves the same file. A recording that
            ends before the procedure is complete names the step it ended in; a malformed
            one names its line.

            With a thigh sensor there are two more runs, in this order, after the shank's:

              romdev calibrate --sensor thigh
                 Steps 1 and 2 for the thigh's board (at 0x69 unless --address names
                 another), off the leg. Its result is the file's "thigh" section; the
                 shank's part of the file is kept.
              romdev calibrate --hinge
                 Both boards strapped on, the thigh's on top of the thigh:
                 1. Sit with the lower leg hanging freely and hold still.
                 2. Let the lower leg swing freely at least three times, bending and
                    straightening the knee, and move the thigh a little too (lift the
                    knee, turn it in and out); then hold still.
                 The swings give the knee's axis in both sensors' frames, which the
                 knee angle from both sensors needs. A thigh held too still, too few
                 swings or swings that do not fit one knee axis are refused with what
                 to do. It needs the shank's calibration (its knee swing tells
                 extension from flexion) and the thigh sensor.

            A new calibration of either board keeps the other board's correction but not
            the knee's axis (the board was strapped on again): run --hinge after it.
            With --replay, --sensor thigh reads a recording's thigh columns and --hinge
            both sensors' columns.

            While the romdev daemon runs it holds the sensor, so the calibration is asked of
            it (through its control socket) and its reply is printed; a daemon that is busy,
            refuses or cannot be reached is an error that says so. The daemon calibrates
            the shank's board only: --sensor thigh and --hinge on the sensors need it
            stopped. --simulate never asks the daemon.
            """,
        options: [
            CalibrateAction.secondsOption, CalibrateAction.sensorOption, CalibrateAction.hingeOption,
            CalibrateAction.replayOption,
        ]
            + SensorSource.options(defaultScenario: "calibration")
            + [CalibrationFile.option] + StoreOptions.options,
        make: { values in
            let seconds = try values.value(CalibrateAction.secondsOption) { text -> Double? in
                guard let seconds = NumberArgument.decimal(text), (1...60).contains(seconds) else { return nil }
                return seconds
            }
            let hinge = values.isSet(CalibrateAction.hingeOption)
            var source = try SensorSource(values, defaultScenario: hinge ? "knee-swings" : "calibration")
            let replay = try values.value(CalibrateAction.replayOption, PathArgument.file)
            if replay != nil, values.isSet(SensorSource.simulateOption) {
                throw UsageError("'--replay' reads a recording; it does not combine with '--simulate'")
            }
            var procedure: CalibrateAction.Procedure =
                values.string(CalibrateAction.sensorOption) == "thigh" ? .thigh : .shank
            if values.isSet(CalibrateAction.hingeOption) {
                // `strings` holds only what was typed, not the default.
                if let sensor = values.strings(CalibrateAction.sensorOption).last {
                    throw UsageError(
                        "'--hinge' calibrates the knee's axis with both sensors; it does not combine with '--sensor \(sensor)'"
                    )
                }
                if seconds != nil {
                    throw UsageError("'--seconds' is for the steps on the table; it does not combine with '--hinge'")
                }
                procedure = .hinge
            }
            // The thigh's board answers at its own address (AD0 high) unless one is named.
            if procedure == .thigh, case .hardware(let bus, _) = source.device,
                values.strings(SensorSource.addressOption).isEmpty
            {
                source.device = .hardware(busPath: bus, address: source.thighAddress ?? MPU6050.alternateAddress)
            }
            // The simulated thigh's board is its own part, with its own errors.
            source.simulatesThighPart = procedure == .thigh
            return CalibrateAction(
                procedure: procedure, biasSeconds: seconds ?? 3, source: source, replayPath: replay,
                calibrationPath: try values.value(CalibrationFile.option, PathArgument.file),
                store: try StoreOptions(values))
        })
}

/// `romdev calibrate [--sensor shank|thigh | --hinge] [--seconds N] [--replay FILE] [--calibration PATH]`
/// with its sensor and store options.
struct CalibrateAction: CommandAction, Equatable {
    /// Which run of the calibration.
    enum Procedure: Equatable {
        /// The shank's board: the faces, strapped on, one knee swing.
        case shank
        /// The thigh's board: the faces only.
        case thigh
        /// Both boards strapped on: free knee swings for the knee's axis.
        case hinge
    }

    static let sensorOption = Option.value(
        "sensor", valueName: "board", help: "Which sensor's board to calibrate on the table.",
        allowedValues: ["shank", "thigh"], defaultValue: "shank")
    static let hingeOption = Option.flag(
        "hinge", help: "Find the knee's axis from free knee swings, both sensors strapped on.")

    static let secondsOption = Option.value(
        "seconds", valueName: "seconds", help: "How long the sensor lies still for the gyro bias: 1 to 60 (default 3).")
    static let replayOption = Option.value(
        "replay", valueName: "file", help: "Calibrate from a recording in the 'romdev record' CSV format.")

    var procedure: Procedure
    var biasSeconds: Double
    var source: SensorSource
    /// A recording to calibrate from instead of the sensor.
    var replayPath: String?
    var calibrationPath: String?
    var store: StoreOptions

    func run(in context: CommandContext) throws {
        if replayPath == nil, case .hardware = source.device {
            let daemon = DaemonControl(environment: context.environment)
            if procedure == .shank {
                if let reply = try daemon.forward(.calibrate, doing: "could not calibrate the sensor") {
                    context.output.line("Calibrated by the romdev daemon: \(reply.message)")
                    return
                }
            } else if (try? daemon.sendIfRunning(.status)) != nil {
                throw CommandFailure(
                    "could not calibrate",
                    why: "the romdev daemon runs and holds the sensors; it calibrates the shank's only",
                    hint: "stop it (systemctl stop romdev), calibrate, and start it again")
            }
        }
        let file = try CalibrationFile(explicitPath: calibrationPath, store: store, in: context)
        try OutputGuard.refuse(
            (file.path, "--calibration"),
            replacing: (replayPath.map { [($0, "the recording")] } ?? [])
                + OutputGuard.storeFiles(try store.resolve(in: context).path))
        let calibration: Calibration
        switch procedure {
        case .shank:
            // A file that cannot be read has no thigh part worth keeping; the new one replaces it.
            let previous = try? file.load()
            calibration = try calibrateBoard(file: file, context: context).keepingThighCorrection(of: previous)
        case .thigh:
            var updated = try Self.shankCalibration(in: file, before: "the thigh sensor")
            updated.thigh = ThighCalibration(sensor: try calibrateBoard(file: file, context: context).sensor)
            calibration = updated
        case .hinge:
            calibration = try calibrateHinge(
                Self.shankCalibration(in: file, before: "the knee's axis"), file: file, context: context)
        }
        try attempt("could not save the calibration to \(file.path)") {
            let directory = FilePath(file.path).directory
            if directory != "." {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            try file.save(calibration)
        }
        context.output.write(Self.summary(calibration, procedure: procedure))
        context.output.line("Saved to \(file.path).")
    }

    /// The file's calibration, which the thigh's runs add to.
    /// - Throws: `CommandFailure` when there is none yet, or it cannot be used.
    static func shankCalibration(in file: CalibrationFile, before what: String) throws -> Calibration {
        guard let calibration = try file.load() else {
            throw CommandFailure(
                "could not calibrate \(what)", why: "\(file.path) holds no calibration of the shank sensor yet",
                hint: "run 'romdev calibrate' first")
        }
        return calibration
    }

    /// One board's procedure on the sensor or over a recording: the shank's whole, the thigh's
    /// table part.
    private func calibrateBoard(file: CalibrationFile, context: CommandContext) throws -> Calibration {
        let board = procedure == .thigh ? "the thigh sensor" : "the sensor"
        if let replayPath {
            context.output.line(
                "Calibrating \(board) from the recording \(replayPath); the result goes to \(file.path).")
            return try calibrateRecording(at: replayPath, output: context.output)
        }
        let at = procedure == .thigh ? String(format: " at 0x%02x", source.address) : ""
        context.output.line("Calibrating \(board) on \(source.label)\(at); the result goes to \(file.path).")
        return try calibrateSensor(clock: context.sensorClock, output: PromptOutput(context.output))
    }

    private var parameters: GuidedCalibration.Parameters {
        var parameters = GuidedCalibration.Parameters()
        parameters.biasSeconds = biasSeconds
        parameters.endsAfterFaces = procedure == .thigh
        return parameters
    }

    /// The procedure on the sensor, apart from the file: bring-up, the guided steps on the
    /// sampling loop, one prompt line per step.
    /// - Parameter clock: The simulated sensor's clock, or nil for real time.
    /// - Throws: `CommandFailure` when the sensor cannot be brought up or fails, or the procedure
    ///   refuses (the device moved, a step timed out, an implausible fit).
    func calibrateSensor(clock sensorClock: (any MonotonicClock)?, output: PromptOutput) throws -> Calibration {
        let clock = sensorClock ?? SystemClock()
        // One board on the table: the shank's, or the thigh's at the shank's place in `source`.
        var board = source
        board.thighAddress = nil
        let sensor = try board.openConfiguredSensors(clock: clock).sensors.shank
        let seconds = biasSeconds
        do {
            return try CalibrationRun(
                sensor: sensor, parameters: parameters,
                pacing: sensorClock == nil ? .dispatchTimer : .sleeping(clock),
                onStep: { step in output.line(Self.prompt(for: step, biasSeconds: seconds)) }
            ).run()
        } catch {
            throw failure(error)
        }
    }

    /// The command's failure for a run's.
    private func failure(_ error: CalibrationRunFailure) -> CommandFailure {
        switch error {
        case .procedure(.moved(let gyro, let acceleration)):
            CommandFailure(
                "calibration refused",
                why: CalibrationError.moved(gyroDeviation: gyro, accelerationDeviation: acceleration).description,
                hint: "lay the sensor flat on a table, leave it still and run 'romdev calibrate' again")
        case .procedure(.needsThighSensor):
            CommandFailure(
                "calibration refused", why: CalibrationError.needsThighSensor.description,
                hint: "fit the thigh sensor at 0x69 and strap it on, then run 'romdev calibrate --hinge' again")
        case .procedure(let refusal):
            CommandFailure(
                "calibration refused", why: refusal.description, hint: "run 'romdev calibrate\(commandSuffix)' again")
        case .sensor(let sensorError):
            CommandFailure("calibration failed", why: sensorError.description, hint: sensorError.hint)
        case .aborted:
            CommandFailure("calibration failed", why: error.description)
        }
    }

    /// The options that chose the procedure, as typed again.
    private var commandSuffix: String {
        switch procedure {
        case .shank: ""
        case .thigh: " --sensor thigh"
        case .hinge: " --hinge"
        }
    }

    /// The recording at `path`.
    /// - Throws: `CommandFailure` naming the line of a malformed one.
    private static func recording(at path: String) throws -> Recording {
        do {
            return try Recording(csv: try ReplayAction.readText(at: path))
        } catch let error as RecordingError {
            throw CommandFailure(
                "\(path) is not a valid recording", why: error.description,
                hint: "calibrate --replay reads the CSV files 'romdev record' writes")
        }
    }

    /// The procedure over a recording: every sample through the same ``GuidedCalibration``, one
    /// prompt line per step with the time in the recording it began; the thigh's columns for the
    /// thigh's board.
    /// - Throws: `CommandFailure` when the file cannot be read or parsed (naming the line), has
    ///   no thigh columns for the thigh, the procedure refuses, or the recording ends before the
    ///   procedure is complete (naming the step).
    func calibrateRecording(at path: String, output: TextOutput) throws -> Calibration {
        let recording = try Self.recording(at: path)
        let samples: [InertialSample]
        if procedure == .thigh {
            guard let thigh = recording.thighSamples else {
                throw CommandFailure(
                    "\(path) has no thigh sensor", why: "its header has no thigh columns",
                    hint: "record the thigh sensor's procedure with both sensors")
            }
            samples = thigh
        } else {
            samples = recording.samples
        }
        var guided = GuidedCalibration(parameters: parameters)
        try replay(samples.indices, times: samples.map(\.time), output: output, first: guided.step) {
            index throws(CalibrationError) in
            try guided.update(samples[index])
        } prompt: {
            Self.prompt(for: $0, biasSeconds: biasSeconds)
        } stepName: {
            Self.stepName($0)
        }
        guard let calibration = guided.calibration else { throw CommandFailure("calibration incomplete") }
        return calibration
    }

    /// Feeds a recording's samples, by index, to a procedure until it finishes, printing a prompt
    /// line at each step it begins.
    /// - Throws: `CommandFailure` when the procedure refuses (at the time in the recording) or the
    ///   recording ends before it finished (naming the step).
    private func replay<Step: Equatable>(
        _ indices: Range<Int>, times: [Double], output: TextOutput, first: Step,
        update: (Int) throws(CalibrationError) -> Step, prompt: (Step) -> String, stepName: (Step) -> String
    ) throws where Step: FinishableStep {
        output.line(prompt(first))
        var step = first
        for index in indices {
            let next: Step
            do throws(CalibrationError) {
                next = try update(index)
            } catch {
                throw CommandFailure(
                    "calibration refused", why: "at \(fixed(times[index], 2)) s in the recording: \(error.description)",
                    hint: "record the procedure again")
            }
            if next != step { output.line("At \(fixed(times[index], 2)) s: " + prompt(next)) }
            step = next
            if step.isFinished { return }
        }
        throw CommandFailure(
            "calibration incomplete",
            why: "the recording ends (at \(fixed(times.last ?? 0, 2)) s) during step " + stepName(step),
            hint: procedure == .hinge
                ? "record the whole step, from sitting still to the swings and the rest after them"
                : "record the whole procedure, from lying still to the knee swing and back")
    }

    /// The knee-axis step over both sensors' samples, on the sensors or over a recording.
    private func calibrateHinge(_ base: Calibration, file: CalibrationFile, context: CommandContext) throws
        -> Calibration
    {
        let step: HingeCalibration
        do {
            step = try HingeCalibration(calibration: base)
        } catch {
            throw CommandFailure(
                "could not calibrate the knee's axis", why: error.description,
                hint: "run 'romdev calibrate' with the sensor strapped to the shin first")
        }
        guard let replayPath else {
            context.output.line(
                "Finding the knee's axis with both sensors on \(source.label); the result goes to \(file.path).")
            let clock = context.sensorClock ?? SystemClock()
            var both = source
            if both.thighAddress == nil { both.thighAddress = MPU6050.alternateAddress }
            let sensors = try both.openConfiguredSensors(clock: clock).sensors
            let output = PromptOutput(context.output)
            do {
                return try GuidedProcedureRunner(
                    step, sensor: sensors.shank, thigh: sensors.thigh, tickSeconds: 0.05,
                    pacing: context.sensorClock == nil ? .dispatchTimer : .sleeping(clock), label: "romdev.calibration",
                    onStep: { output.line(Self.prompt(for: $0)) }
                ).run()
            } catch {
                throw failure(error)
            }
        }
        context.output.line(
            "Finding the knee's axis from the recording \(replayPath); the result goes to \(file.path).")
        let recording = try Self.recording(at: replayPath)
        guard let thigh = recording.thighSamples else {
            throw CommandFailure(
                "calibration refused", why: CalibrationError.needsThighSensor.description,
                hint: "\(replayPath) has no thigh columns; record the swings with both sensors")
        }
        var guided = step
        let shank = recording.samples
        try replay(shank.indices, times: shank.map(\.time), output: context.output, first: guided.step) {
            index throws(CalibrationError) in
            try guided.update(shank[index], thigh: thigh[index])
        } prompt: {
            Self.prompt(for: $0)
        } stepName: {
            switch $0 {
            case .sitStill: "1, sitting still"
            case .swing: "2, the swings and the rest after them"
            case .finished: "none"
            }
        }
        guard let calibration = guided.calibration else { throw CommandFailure("calibration incomplete") }
        return calibration
    }

    /// The step's number and what it waits for, for a recording that ends in it.
    static func stepName(_ step: GuidedCalibration.Step) -> String {
        switch step {
        case .holdStill: "1, lying still for the gyro bias"
        case .nextFace(let captured): "2, the faces (\(captured) of \(Calibration.facePoses) poses taken)"
        case .retakeFace(let face): "2, a tip that lost samples made again (\(face) up)"
        case .wrongFace(let up, let asked, let after):
            "2, the faces (lying \(up) up, waiting for \(asked) up after \(after))"
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
        case .retakeFace(let face):
            "2. Samples were lost while it turned (the computer fell behind the sensor), so that tip must be "
                + "made again: tip the sensor so that its \(face) side is up, and hold it still."
        case .wrongFace(let up, let asked, let after):
            "2. Its \(up) side is up, not \(asked): turn it back so that its \(after) side is up, then tip it "
                + "over so that its \(asked) side is up, and hold it still."
        case .strapOn:
            "3. Table part done. Strap the sensor to the front of your shin below the knee, sit with the foot "
                + "on the floor and hold still."
        case .swing: "4. Start pose taken. Extend your knee once, lower it back and hold still."
        case .finished: "Done."
        }
    }

    static func prompt(for step: HingeCalibration.Step) -> String {
        switch step {
        case .sitStill:
            "1. With both sensors strapped on, sit with the lower leg hanging freely and hold still..."
        case .swing:
            "2. Let the lower leg swing freely at least three times, bending and straightening the knee, and "
                + "move the thigh a little too (lift the knee, turn it in and out). Then hold still."
        case .finished: "Done."
        }
    }

    static func summary(_ calibration: Calibration, procedure: Procedure) -> String {
        func vector(_ v: Vector3, _ digits: Int) -> String {
            "(\(fixed(v.x, digits)), \(fixed(v.y, digits)), \(fixed(v.z, digits)))"
        }
        func correction(_ sensor: SensorCorrection) -> [String] {
            [
                "Gyro bias             \(vector(sensor.gyroBias, 3)) °/s",
                "Gyro correction       \(vector(sensor.gyroMatrix.row0, 4))",
                "                      \(vector(sensor.gyroMatrix.row1, 4))",
                "                      \(vector(sensor.gyroMatrix.row2, 4))",
                "Accelerometer offset  \(vector(sensor.accelerometerOffset, 4)) g",
                "Accelerometer corr.   \(vector(sensor.accelerometerMatrix.row0, 4))",
                "                      \(vector(sensor.accelerometerMatrix.row1, 4))",
                "                      \(vector(sensor.accelerometerMatrix.row2, 4))",
            ]
        }
        var lines: [String]
        switch procedure {
        case .shank:
            lines = correction(calibration.sensor)
            if let mounting = calibration.mounting {
                lines.append("Shin axis             \(vector(mounting.shinAxis, 3)) (sensor axes)")
                lines.append("Knee hinge axis       \(vector(mounting.hingeAxis, 3))")
            }
            if calibration.thigh?.sensor != nil {
                lines.append(
                    "The thigh sensor's correction is kept; run 'romdev calibrate --hinge' for the knee's axis.")
            }
        case .thigh:
            lines = ["Thigh sensor:"] + ((calibration.thigh?.sensor).map(correction) ?? [])
            lines.append("Run 'romdev calibrate --hinge' for the knee's axis.")
        case .hinge:
            lines = []
            if let axes = calibration.thigh?.hingeAxes {
                lines.append("Knee axis, thigh      \(vector(axes.thigh, 3)) (thigh sensor axes)")
                lines.append("Knee axis, shank      \(vector(axes.shank, 3)) (shank sensor axes)")
            }
            if calibration.thigh?.sensor == nil {
                lines.append(
                    "The thigh sensor has no calibration of its own; 'romdev calibrate --sensor thigh' adds one.")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A procedure's step that can say whether the procedure is over.
protocol FinishableStep {
    var isFinished: Bool { get }
}

extension GuidedCalibration.Step: FinishableStep {
    var isFinished: Bool { self == .finished }
}

extension HingeCalibration.Step: FinishableStep {
    var isFinished: Bool { self == .finished }
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
