import Appliance
import Care
import CareStorage
import Foundation
import Fusion
import Sampling
import ServiceSupport

extension Command {
    /// `romdev measure`: one guided measurement, stored on today's range-of-motion event.
    static let measure = Command(
        name: "measure",
        abstract: "Measure the knee range of motion and record it on today's event.",
        discussion: """
            Sit on the edge of a chair with the sensor strapped to the front of the shin just
            below the knee, foot on the floor. Hold still until asked, extend the knee as far
            as possible, lower it back and hold still: the session ends on its own when the
            leg is back and still (or after 60 s). Angles are the shank's inclination from
            vertical in the sagittal plane, in degrees (0 = shin vertical, 90 = horizontal).
            The knee angles follow the clinical convention (0 = straight, flexion positive):
            knee_extension (the least flexion reached; negative is hyperextension),
            knee_flexion (the most) and knee_arc (their difference).

            --protocol arc guides a second step: after the extension and the return, slide
            the foot back under the chair as far as possible, then return and hold still;
            knee_flexion then measures flexion past 90°. Without --protocol, the session
            follows what the care plan asks for ('romdev init --protocol'; extension by
            default); a measurement asked of the romdev daemon without it follows the
            daemon's 'protocol' configuration key, else the care plan. --simulate without a
            scenario plays the session's protocol: knee-extension, or knee-arc for the arc.

            The outcome of today's rangeOfMotionCheck event gets the values range (first),
            start, finish, minimum, maximum, knee_extension, knee_flexion and knee_arc
            (double, units deg), the limb (text, kind limb), the protocol (text, kind
            protocol) and one text value of kind flag per quality flag (moved-at-start,
            gyro-saturated, not-returned, unsteady, not-seated, no-flexion, samples-lost). It
            is committed to disk before the result is printed. Without an event today, before
            onboarding, or when today's
            event already has an outcome, nothing is measured or stored (exit 1); nor is a
            result flagged implausible, too-short or no-movement (exit 1), as the daemon
            would not store it either.

            --unscheduled records a measurement outside the plan's schedule: on the day's
            event of the task rangeOfMotionUnscheduled (all day, every day, not counted in
            adherence), which is added to the store the first time it is used. One such
            measurement per day.

            The calibration from 'romdev calibrate' is used when present.

            With a thigh sensor (--thigh-address 0x69; the daemon's thigh_address) both
            sensors are read in the same tick, each shank sample with the thigh's reading at
            its instant; a thigh sensor configured but not answering is an error naming its
            address and bus, before anything is measured.

            While the romdev daemon runs it holds the sensor, so the measurement is asked of
            it (through its control socket) and its reply is printed; a busy daemon or a
            socket this user may not open is an error that says so. --simulate never asks
            the daemon.
            """,
        options: SensorSource.options(defaultScenario: "knee-extension")
            + [
                MeasureAction.limbOption, ProtocolOption.option, MeasureAction.jsonOption,
                MeasureAction.unscheduledOption, CalibrationFile.option,
            ]
            + StoreOptions.options,
        make: { values in
            MeasureAction(
                source: try SensorSource(values, defaultScenario: "knee-extension"),
                limb: values.string(MeasureAction.limbOption).flatMap(Limb.init(rawValue:)),
                measurementProtocol: ProtocolOption.value(in: values),
                json: values.isSet(MeasureAction.jsonOption),
                unscheduled: values.isSet(MeasureAction.unscheduledOption),
                calibrationPath: try values.value(CalibrationFile.option, PathArgument.file),
                store: try StoreOptions(values))
        })
}

/// `romdev measure [--limb left|right] [--protocol extension|arc] [--json] [--unscheduled] [--calibration PATH]` with its
/// sensor and store options.
struct MeasureAction: CommandAction, Equatable {
    static let limbOption = Option.value(
        "limb", valueName: "limb", help: "The knee measured. Default: the care plan's limb.",
        allowedValues: Limb.allCases.map(\.rawValue))
    static let jsonOption = Option.flag("json", help: "Print the result as JSON (and no prompts).")
    static let unscheduledOption = Option.flag(
        "unscheduled", help: "Record the measurement outside the schedule (task \(MeasurementTask.unscheduled.taskID))."
    )

    var source: SensorSource
    var limb: Limb?
    /// nil: what the care plan asks for.
    var measurementProtocol: MeasurementProtocol?
    var json: Bool
    var unscheduled: Bool
    var calibrationPath: String?
    var store: StoreOptions

    func run(in context: CommandContext) throws {
        let what = "could not measure the range of motion"
        if case .hardware = source.device,
            let reply = try DaemonControl(environment: context.environment).forward(
                .measure(limb: limb?.rawValue, unscheduled: unscheduled, protocolName: measurementProtocol?.rawValue),
                doing: what)
        {
            if json, let payload = reply.payload {
                context.output.line(String(decoding: payload, as: UTF8.self))
            } else {
                context.output.line("Measured by the romdev daemon: \(reply.message)")
            }
            return
        }
        let careStore = try store.open(in: context, access: .readWrite)
        let settings = try attempt(what) { try careStore.carePlanSettings() }
        guard let settings else {
            throw CommandFailure(what, why: "the store has no care plan", hint: "run 'romdev init' first")
        }
        // Everything that can refuse the measurement is checked before the patient does it.
        let task: MeasurementTask = unscheduled ? .unscheduled : .scheduled
        let target: MeasurementTarget
        do {
            target = try careStore.measurementTarget(task, at: context.now())
        } catch {
            throw Self.failure(error, doing: what, task: task)
        }
        let calibrationFile = try CalibrationFile(explicitPath: calibrationPath, store: store, in: context)
        let calibration = try calibrationFile.load()
        let limb = self.limb ?? settings.limb

        let output = PromptOutput(context.output)
        let json = json
        if !json {
            output.line("Calibration: \(calibrationFile.describe(calibration))")
        }
        let sessionProtocol = measurementProtocol ?? MeasurementProtocol(settings.rangeOfMotionProtocol)
        let report = try PromptedMeasurement(
            source: source.playing(sessionProtocol),
            calibration: calibration, clock: context.sensorClock, limb: limb.rawValue,
            measurementProtocol: sessionProtocol
        ).run { line in if !json { output.line(line) } }

        let stored: StoredOutcome
        do {
            stored = try careStore.recordMeasurement(report.result, on: target, limb: limb, at: context.now())
        } catch {
            throw Self.failure(error, doing: what, task: task)
        }
        let calendar = careStore.calendar
        if json {
            context.output.write(try Self.json(report, stored: stored, limb: limb, calendar: calendar).rendered())
        } else {
            context.output.write(Self.text(report))
            context.output.line(
                "Recorded on \(stored.taskID) occurrence \(stored.outcome.taskOccurrenceIndex) "
                    + "(\(LocalTime.day(stored.outcome.eventStart, calendar: calendar))).")
        }
    }

    /// What the store's refusal tells the patient, with what to do about it.
    static func failure(_ error: MeasurementRecordingError, doing what: String, task: MeasurementTask) -> CommandFailure
    {
        switch error {
        case .noCarePlan:
            CommandFailure(what, why: "\(error)", hint: "run 'romdev init' first")
        case .nothingDue:
            CommandFailure(
                what, why: "\(error)",
                hint:
                    "'romdev today' shows what is due; 'romdev measure --unscheduled' records one outside the schedule")
        case let .alreadyRecorded(taskID, occurrence):
            CommandFailure(
                what, why: "\(error)",
                hint: "delete it first with 'romdev outcome delete --task \(taskID) --occurrence \(occurrence)'"
                    + (task == .unscheduled ? "" : ", or add --unscheduled"))
        case .unusable(let reason):
            CommandFailure(
                "the measurement is not usable; nothing was stored", why: "\(reason)",
                hint: "sit still until 'Ready', extend the knee as far as you can, then lower it back and hold still")
        case .store(let error):
            CommandFailure(what, why: "\(error)", hint: error.hint)
        }
    }

    static func text(_ report: RangeOfMotionMeasurement.Report) -> String {
        let sampling = report.sampling
        var lines =
            report.result.textLines + [
                "  session   \(fixed(report.seconds, 2)) s, \(report.samples) samples, \(sampling.lostSamples) lost, "
                    + "\(sampling.lateTicks) late ticks of \(sampling.ticks)"
            ]
        if sampling.thighSamples > 0 {
            lines.append("  thigh     \(sampling.thighSamples) samples, \(sampling.thighLostSamples) lost")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The result's own JSON (as stored: ``RangeOfMotionResult/reported``), then the session and
    /// the stored outcome.
    static func json(
        _ report: RangeOfMotionMeasurement.Report, stored: StoredOutcome, limb: Limb, calendar: Calendar
    ) throws -> JSONValue {
        .object(
            try JSONValue.members(of: report.result, orderedAs: RangeOfMotionResult.CodingKeys.self) + [
                ("limb", .string(limb.rawValue)),
                ("ended", .string(report.endReason.rawValue)),
                ("seconds", .double(report.seconds)),
                ("samples", .int(report.samples)),
                ("lost_samples", .int(report.sampling.lostSamples)),
            ]
                + (report.sampling.thighSamples > 0
                    ? [
                        ("thigh_samples", .int(report.sampling.thighSamples)),
                        ("thigh_lost_samples", .int(report.sampling.thighLostSamples)),
                    ] : []) + [("outcome", CareOutput.json(stored, calendar: calendar))])
    }
}
