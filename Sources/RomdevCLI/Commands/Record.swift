import Foundation
import Fusion
import LinuxSystem
import Sensor

extension Command {
    /// `romdev record`: raw samples to CSV, the format `romdev replay` reads.
    static let record = Command(
        name: "record",
        abstract: "Record raw sensor samples to a CSV file.",
        discussion: """
            Configures the sensor (200 Hz, low-pass 44 Hz, ±500 °/s, ±4 g), reads its FIFO
            and writes one row per sample:

              \(Recording.header)

            Times are seconds on the sensor's own sample clock, acceleration in g, angular
            rate in °/s, die temperature in °C. Simulated recordings add a last column,
            \(Recording.truthColumn): the shank's true inclination from vertical in degrees.
            If the host reads the FIFO too late, it overflows and the rows of the lost
            samples are missing (their times are skipped).

            --simulate=calibration records the guided calibration (about a minute: use
            --seconds 70); 'romdev calibrate --replay FILE' calibrates from such a file,
            or from one recorded while doing the procedure with the real sensor.

            An existing file is never overwritten. If the sensor fails mid-way, the rows
            recorded so far are kept.
            """,
        options: [RecordAction.secondsOption, RecordAction.outputOption]
            + SensorSource.options(defaultScenario: "knee-extension"),
        make: { values in
            let seconds = try values.required(RecordAction.secondsOption) { text -> Double? in
                guard let seconds = NumberArgument.decimal(text), seconds >= 0.1, seconds <= 86_400 else { return nil }
                return seconds
            }
            return RecordAction(
                seconds: seconds, outputPath: try values.required(RecordAction.outputOption, PathArgument.file),
                source: try SensorSource(values, defaultScenario: "knee-extension"))
        })
}

/// `romdev record --seconds N --output FILE.csv` with its sensor options.
public struct RecordAction: CommandAction, Equatable {
    static let secondsOption = Option.value(
        "seconds", valueName: "seconds", help: "How long to record: from 0.1 to 86400.", isRequired: true)
    static let outputOption = Option.value(
        "output", valueName: "file", help: "The CSV file to create; it must not exist.", isRequired: true)

    public var seconds: Double
    public var outputPath: String
    public var source: SensorSource

    public init(seconds: Double, outputPath: String, source: SensorSource) {
        self.seconds = seconds
        self.outputPath = outputPath
        self.source = source
    }

    public func run(in context: CommandContext) throws {
        guard !FileManager.default.fileExists(atPath: outputPath) else {
            throw CommandFailure(
                "will not overwrite \(outputPath)", hint: "choose another --output, or move the existing file away")
        }
        let clock = context.sensorClock ?? SystemClock()
        let (sensor, simulator) = try source.openConfiguredSensor(clock: clock)

        // Created exclusively: whatever appeared at the path since the check above is not replaced.
        let descriptor: CInt
        do {
            descriptor = try FilePath(outputPath).createNewFile()
        } catch .fileExists {
            throw CommandFailure(
                "will not overwrite \(outputPath)", hint: "choose another --output, or move the existing file away")
        } catch {
            throw CommandFailure(
                "could not create \(outputPath)", why: "\(error)",
                hint: "check that the directory exists and is writable")
        }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? file.close() }
        var header = Recording.header
        if simulator != nil { header += "," + Recording.truthColumn }
        var written = 0
        var lost = 0
        var gaps = 0
        do {
            try file.write(contentsOf: Data((header + "\n").utf8))
            try sensor.record(seconds: seconds) { batch in
                if let gap = batch.gap {
                    gaps += 1
                    lost += gap.count
                }
                var rows = ""
                for sample in batch.samples {
                    rows += Self.row(sample, truth: simulator?.truthInclinationDegrees(forSampleIndex: sample.index))
                }
                try file.write(contentsOf: Data(rows.utf8))
                written += batch.samples.count
            }
        } catch {
            throw CommandFailure(
                "recording stopped after \(written) samples (kept in \(outputPath))", why: "\(error)",
                hint: (error as? MPU6050Error)?.hint ?? (error as? I2CError)?.hint)
        }
        let rate = MPU6050Configuration.standard.sampleRateHz
        var summary = "Recorded \(written) samples (\(format(seconds, 2)) s at \(rate) Hz"
        if let part = sensor.part { summary += ", \(part.rawValue)" }
        summary += ") from \(source.label) to \(outputPath)."
        context.output.line(summary)
        if gaps > 0 {
            context.output.line(
                "The FIFO overflowed \(gaps) time\(gaps == 1 ? "" : "s"): \(lost) samples are missing; "
                    + "the host was too slow to read it.")
        }
    }

    /// One CSV row; numbers to a resolution finer than the sensor's (accel LSB ≥ 61 µg, gyro ≥ 7.6 m°/s).
    static func row(_ sample: IMUSample, truth: Double?) -> String {
        let a = sample.accelerationG
        let w = sample.angularRateDPS
        var row = String(
            format: "%.3f,%.5f,%.5f,%.5f,%.4f,%.4f,%.4f,%.2f", sample.timeSeconds, a.x, a.y, a.z, w.x, w.y, w.z,
            sample.temperatureCelsius)
        if let truth { row += String(format: ",%.3f", truth) }
        return row + "\n"
    }
}
