import Foundation
import Fusion
import LinuxSystem
import ServiceSupport

extension Command {
    /// `romdev replay`: the measurement pipeline over a recording.
    static let replay = Command(
        name: "replay",
        abstract: "Measure the knee range of motion in a recorded CSV file.",
        discussion: """
            Runs the same pipeline as a live measurement over a file written by
            'romdev record', at whatever sample rate its timestamps give: calibration,
            fusion of gyro and accelerometer into the direction of gravity, and the
            session (still start, extension, return, still; with --protocol arc, then the
            flexion under the chair, return, still; default extension). Angles are the shank's
            inclination from vertical in the sagittal plane, in degrees: 0 = shin
            vertical, 90 = shin horizontal, positive toward extension. Without a mounting
            in the calibration, the start pose defines 0. The knee angles (knee_extension,
            knee_flexion, knee_arc) are those of 'romdev measure'. --protocol arc follows a
            session of both steps (extension, then flexion under the chair). A recording with
            the thigh sensor's columns is measured with both sensors: the knee angles come from
            both orientations (knee_source thigh-sensor), and the angles are the shank's
            inclination from the thigh's perpendicular, 90 minus the knee flexion.

            The calibration is --calibration PATH, else calibration.json in the care store's
            directory when it exists (the output says which). Without one the samples are
            used as recorded; the filter still learns the gyro bias while the leg is at
            rest, but accelerometer offsets (up to 80 mg, about 4.6°) remain.

            --trace writes one row per input sample, replacing the file atomically:

              \(ReplayAction.traceHeader)

            (the shank's unit gravity direction in the sensor frame, pointing away from
            the earth, its sagittal angle, and the knee flexion: from both sensors with a
            thigh sensor, otherwise 90 minus the angle). A malformed recording is reported
            with its line number.
            """,
        arguments: [ReplayAction.fileArgument],
        options: [CalibrationFile.option, ProtocolOption.option, ReplayAction.jsonOption, ReplayAction.traceOption]
            + StoreOptions.options,
        make: { values in
            ReplayAction(
                recordingPath: try values.value(ReplayAction.fileArgument, PathArgument.file)
                    ?? values.required(ReplayAction.fileArgument),
                calibrationPath: try values.value(CalibrationFile.option, PathArgument.file),
                measurementProtocol: ProtocolOption.value(in: values) ?? .extension,
                json: values.isSet(ReplayAction.jsonOption),
                tracePath: try values.value(ReplayAction.traceOption, PathArgument.file),
                store: try StoreOptions(values))
        })
}

/// `romdev replay FILE.csv [--calibration PATH] [--protocol extension|arc] [--json] [--trace OUT.csv]`.
public struct ReplayAction: CommandAction, Equatable {
    static let fileArgument = Argument("file", help: "A recording in the 'romdev record' CSV format.")
    static let jsonOption = Option.flag("json", help: "Print the result as JSON.")
    static let traceOption = Option.value(
        "trace", valueName: "file", help: "Write the gravity direction and angle of every sample to this CSV file.")
    static let traceHeader = "time_s,gravity_x,gravity_y,gravity_z,angle_deg,knee_angle_deg"

    public var recordingPath: String
    public var calibrationPath: String?
    public var measurementProtocol: MeasurementProtocol
    public var json: Bool
    public var tracePath: String?
    var store: StoreOptions

    init(
        recordingPath: String, calibrationPath: String?, measurementProtocol: MeasurementProtocol = .extension,
        json: Bool, tracePath: String?, store: StoreOptions
    ) {
        self.recordingPath = recordingPath
        self.calibrationPath = calibrationPath
        self.measurementProtocol = measurementProtocol
        self.json = json
        self.tracePath = tracePath
        self.store = store
    }

    public func run(in context: CommandContext) throws {
        let calibrationFile = try CalibrationFile(explicitPath: calibrationPath, store: store, in: context)
        if let tracePath {
            try OutputGuard.refuse(
                (tracePath, "--trace"),
                replacing: [(recordingPath, "the recording"), (calibrationFile.path, "the calibration")]
                    + OutputGuard.storeFiles(try store.resolve(in: context).path))
        }
        let loaded = try calibrationFile.load()
        let text = try Self.readText(at: recordingPath)
        let recording: Recording
        do {
            recording = try Recording(csv: text)
        } catch {
            throw CommandFailure(
                "\(recordingPath) is not a valid recording", why: error.description,
                hint: "replay reads the CSV files 'romdev record' writes")
        }

        let samples = recording.samples, thighSamples = recording.thighSamples
        var session = MeasurementSession(
            parameters: SessionParameters(measurementProtocol: measurementProtocol), calibration: loaded)
        for (index, sample) in samples.enumerated() where !session.isFinished {
            session.update(sample, thigh: thighSamples?[index])
        }
        session.stop()
        guard let result = session.result(), case .finished(let reason) = session.phase else {
            throw CommandFailure("could not measure \(recordingPath)", why: "the recording has no usable samples")
        }
        let used = session.sampleCount
        let duration = samples[used - 1].time - samples[0].time
        let reference = recording.truthAngles.map { truth -> Double in
            let span = truth.prefix(used)
            return (span.max() ?? 0) - (span.min() ?? 0)
        }

        if let tracePath, let mounting = session.mounting {
            try writeTrace(
                samples, thigh: thighSamples, calibration: loaded, mounting: mounting, leg: session.legMounting,
                to: tracePath)
        }
        let summary = Summary(
            result: result, reason: reason, samples: used, seconds: duration, referenceRange: reference,
            calibration: loaded == nil ? nil : calibrationFile.path, calibrationText: calibrationFile.describe(loaded))
        context.output.write(json ? try summary.json() : summary.text)
    }

    /// The file's text, with a plain reason when it cannot be read.
    static func readText(at path: String) throws -> String {
        let what = "could not read \(path)"
        let bytes: [UInt8]
        do {
            bytes = try FilePath(path).readRegularFile(limit: recordingSizeLimit)
        } catch .cannotOpen(.noSuchFileOrDirectory) {
            throw CommandFailure(what, why: "no such file")
        } catch {
            throw CommandFailure(what, why: error.description)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandFailure(what, why: "it is not UTF-8 text")
        }
        return text
    }

    /// The largest recording read: a day at 200 Hz with the truth column is about 1.2 GB.
    static let recordingSizeLimit = 2 << 30

    /// The trace: a fresh filter over every sample (the session's filters stop with the session),
    /// angles under the session's mountings, unwrapped. It is the filters' estimate as it was at
    /// each sample, in real time.
    private func writeTrace(
        _ samples: [InertialSample], thigh thighSamples: [InertialSample]?, calibration: Calibration?,
        mounting: Mounting, leg: LegMounting?, to path: String
    ) throws {
        var filter = OrientationFilter(gyroBias: calibration == nil ? nil : .zero)
        let thighCalibration = calibration?.thigh
        var thighFilter = OrientationFilter(gyroBias: thighCalibration?.sensor == nil ? nil : .zero)
        var unwrapper = AngleUnwrapper(), kneeUnwrapper = AngleUnwrapper()
        var text = Self.traceHeader + "\n"
        text.reserveCapacity(samples.count * 72)
        for (index, raw) in samples.enumerated() {
            let sample = calibration?.corrected(raw) ?? raw
            filter.update(sample)
            let g = filter.gravity
            let angle = unwrapper.unwrap(mounting.sagittalAngle(gravity: g))
            let knee: Double
            if let leg, let thigh = thighSamples?[index] {
                thighFilter.update(thighCalibration?.corrected(thigh) ?? thigh)
                knee = kneeUnwrapper.unwrap(leg.kneeFlexion(thighGravity: thighFilter.gravity, shankGravity: g))
            } else {
                knee = KneeAngle.flexion(shankInclination: angle)
            }
            let gravity = "\(fixed(g.x, 6)),\(fixed(g.y, 6)),\(fixed(g.z, 6))"
            text += "\(fixed(sample.time, 6)),\(gravity),\(fixed(angle, 3)),\(fixed(knee, 3))\n"
        }
        try attempt("could not write the trace to \(path)") { try AtomicFile.write(text, to: path) }
    }

    /// The printed result.
    struct Summary {
        var result: RangeOfMotionResult
        var reason: MeasurementSession.EndReason
        var samples: Int
        var seconds: Double
        var referenceRange: Double?
        /// The calibration file used, if any, and how it was chosen.
        var calibration: String?
        var calibrationText: String

        var endText: String {
            switch reason {
            case .returned: "the leg was back and still"
            case .returnedUnsteady: "the leg was back but did not come to rest"
            case .stopped: "the recording ended"
            case .timedOut: "time-out"
            }
        }

        var text: String {
            var lines =
                result.textLines + [
                    "  ended     \(endText), \(fixed(seconds, 2)) s after the first sample (\(samples) samples)"
                ]
            lines.append("  calibration \(calibrationText)")
            if let referenceRange {
                lines.append(
                    "  reference range \(fixed(referenceRange, 1))° (error \(fixed(result.range - referenceRange, 2))°)"
                )
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// The result's own JSON, then the session, the reference and the calibration.
        func json() throws -> String {
            var members =
                try JSONValue.members(of: result, orderedAs: RangeOfMotionResult.CodingKeys.self) + [
                    ("ended", JSONValue.string(reason.rawValue)),
                    ("seconds", .double(seconds)),
                    ("samples", .int(samples)),
                ]
            if let referenceRange { members.append(("reference_range", .double(referenceRange))) }
            members.append(("calibration", .string(calibration)))
            return JSONValue.object(members).rendered()
        }
    }
}

/// `value` with `digits` decimals, without a minus sign on zero.
func fixed(_ value: Double, _ digits: Int) -> String {
    let text = String(format: "%.\(digits)f", value)
    return Double(text) == 0 ? String(format: "%.\(digits)f", 0.0) : text
}

extension RangeOfMotionResult {
    /// Where the knee angles come from, for people.
    var kneeSourceText: String {
        switch kneeAngleSource {
        case .seatedAssumption: "one sensor, seated"
        case .thighSensor: "both sensors"
        }
    }

    /// The result as `measure` and `replay` print it, one angle per line to a tenth of a degree.
    var textLines: [String] {
        let flags = flags.isEmpty ? "none" : flags.names.joined(separator: ", ")
        return [
            "Range of motion: \(fixed(range, 1))°",
            "  start     \(fixed(start, 1))°",
            "  finish    \(fixed(finish, 1))°",
            "  minimum   \(fixed(minimum, 1))°",
            "  maximum   \(fixed(maximum, 1))°",
            "Knee (\(measurementProtocol.rawValue)): extension \(fixed(kneeExtension, 1))°, flexion \(fixed(kneeFlexion, 1))°, "
                + "arc \(fixed(kneeArc, 1))°, \(kneeSourceText)",
            "  flags     \(flags)",
        ]
    }
}
