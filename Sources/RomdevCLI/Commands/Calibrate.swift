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
                 still for about 3 s, turning it about all three of its axes: accelerometer
                 offset and scale, and gyro sensitivity from the turns.
              3. Strap it to the front of the shin below the knee, sit with the foot on the
                 floor (shin vertical) and hold still: the shin axis.
              4. Extend the knee once, lower it and hold still: the knee's hinge axis.

            The result is written atomically as versioned JSON to --calibration PATH, else
            to calibration.json in the care store's directory, where 'measure', 'replay' and
            'doctor' find it. On a refusal or failure the existing file is left unchanged.
            --simulate runs the simulated 'calibration' scenario in real time (under a minute).

            While the romdev daemon runs it holds the sensor, so the calibration is asked of
            it (through its control socket) and its reply is printed; a daemon that is busy,
            refuses or cannot be reached is an error that says so. --simulate never asks the
            daemon.
            """,
        options: [CalibrateAction.secondsOption] + SensorSource.options(defaultScenario: "calibration")
            + [CalibrationFile.option] + StoreOptions.options,
        make: { values in
            let seconds = try values.value(CalibrateAction.secondsOption) { text -> Double? in
                guard let seconds = NumberArgument.decimal(text), (1...60).contains(seconds) else { return nil }
                return seconds
            }
            return CalibrateAction(
                biasSeconds: seconds ?? 3, source: try SensorSource(values, defaultScenario: "calibration"),
                calibrationPath: try values.value(CalibrationFile.option, PathArgument.file),
                store: try StoreOptions(values))
        })
}

/// `romdev calibrate [--seconds N] [--calibration PATH]` with its sensor and store options.
struct CalibrateAction: CommandAction, Equatable {
    static let secondsOption = Option.value(
        "seconds", valueName: "seconds", help: "How long the sensor lies still for the gyro bias: 1 to 60 (default 3).")

    var biasSeconds: Double
    var source: SensorSource
    var calibrationPath: String?
    var store: StoreOptions

    func run(in context: CommandContext) throws {
        if case .hardware = source,
            let reply = try DaemonControl(environment: context.environment).forward(.calibrate, doing: "could not calibrate the sensor")
        {
            context.output.line("Calibrated by the romdev daemon: \(reply.message)")
            return
        }
        let file = try CalibrationFile(explicitPath: calibrationPath, store: store, in: context)
        context.output.line("Calibrating the sensor on \(source.label); the result goes to \(file.path).")
        let calibration = try calibrateSensor(clock: context.sensorClock, output: PromptOutput(context.output))
        try attempt("could not save the calibration to \(file.path)") {
            let directory = FilePath(file.path).directory
            if directory != "." {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            try AtomicFile.write(String(decoding: calibration.json(), as: UTF8.self) + "\n", to: file.path)
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
        let sensor = try source.openConfiguredSensor(clock: clock).sensor
        var parameters = GuidedCalibration.Parameters()
        parameters.biasSeconds = biasSeconds
        let seconds = biasSeconds
        do {
            return try SensorCalibration(
                sensor: sensor, parameters: parameters,
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
                throw CommandFailure("calibration refused", why: refusal.description, hint: "run 'romdev calibrate' again")
            case .sensor(let sensorError):
                throw CommandFailure("calibration failed", why: sensorError.description, hint: sensorError.hint)
            case .aborted:
                throw CommandFailure("calibration failed", why: error.description)
            }
        }
    }

    static func prompt(for step: GuidedCalibration.Step, biasSeconds: Double) -> String {
        switch step {
        case .holdStill: "1. Lay the sensor flat on a table and leave it still for \(fixed(biasSeconds, 0)) s..."
        case .nextFace(let captured):
            "2. Face \(captured) of 6 done. Tip the sensor over an edge onto a face not used yet and hold it still."
        case .strapOn:
            "3. All six faces done. Strap the sensor to the front of your shin below the knee, sit with the foot "
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
            "Gyro sensitivity      \(vector(calibration.gyroScale, 4))",
            "Accelerometer offset  \(vector(calibration.accelerometerOffset, 4)) g",
            "Accelerometer scale   \(vector(calibration.accelerometerScale, 4))",
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
