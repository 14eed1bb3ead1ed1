import Foundation
import Fusion
import LinuxSystem
import Sampling
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
            rate in °/s, die temperature in °C. With a thigh sensor (--thigh-address 0x69)
            the thigh's readings at the same instants follow the shank's:

              \(Recording.thighColumns)

            Simulated recordings add a last column, \(Recording.truthColumn): the shank's
            true inclination from vertical in degrees.
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
        let (sensors, simulator) = try source.openConfiguredSensors(clock: clock)
        let sensor = sensors.shank

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
        let header = Recording.header(thigh: sensors.thigh != nil, truth: simulator != nil)
        var written = 0
        var lost = 0
        var gaps = 0
        do {
            try file.write(contentsOf: Data((header + "\n").utf8))
            if let thigh = sensors.thigh {
                let ticker = SampleTicker(sensor: sensor, thigh: thigh, periodSeconds: 0.05, clock: clock)
                try Self.recordPairs(ticker, seconds: seconds) { shank, thigh in
                    let row = Self.row(
                        shank, thigh: thigh, truth: simulator?.truthInclinationDegrees(forSampleIndex: shank.index))
                    try file.write(contentsOf: Data(row.utf8))
                    written += 1
                }
                lost = ticker.statistics.lostSamples + ticker.statistics.thighLostSamples
            } else {
                try sensor.record(seconds: seconds) { batch in
                    if let gap = batch.gap {
                        gaps += 1
                        lost += gap.count
                    }
                    var rows = ""
                    for sample in batch.samples {
                        rows += Self.row(
                            sample, thigh: nil, truth: simulator?.truthInclinationDegrees(forSampleIndex: sample.index))
                    }
                    try file.write(contentsOf: Data(rows.utf8))
                    written += batch.samples.count
                }
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
        if sensors.thigh != nil, lost > 0 {
            context.output.line(
                "A FIFO overflowed: \(lost) samples are missing (the thigh's are interpolated across its gap); "
                    + "the host was too slow to read it.")
        } else if gaps > 0 {
            context.output.line(
                "The FIFO overflowed \(gaps) time\(gaps == 1 ? "" : "s"): \(lost) samples are missing; "
                    + "the host was too slow to read it.")
        }
    }

    /// Reads both FIFOs every 50 ms on the sensors' clock and hands on each shank sample of the
    /// first `seconds` with the thigh's reading at its instant, in index order.
    static func recordPairs(
        _ ticker: SampleTicker, seconds: Double, _ body: (IMUSample, IMUSample?) throws -> Void
    ) throws {
        let rate = Double(ticker.sensor.configuration?.sampleRateHz ?? MPU6050Configuration.standard.sampleRateHz)
        let total = Int((seconds * rate).rounded())
        var reached = false
        var failure: (any Error)?
        let take = { (shank: IMUSample, thigh: IMUSample?) in
            guard failure == nil, shank.index < total else {
                reached = true
                return
            }
            if shank.index == total - 1 { reached = true }
            do { try body(shank, thigh) } catch { failure = error }
        }
        while !reached {
            ticker.clock.sleep(seconds: ticker.periodSeconds)
            try ticker.tick(take)
            if let failure { throw failure }
        }
    }

    /// One CSV row; numbers to a resolution finer than the sensor's (accel LSB ≥ 61 µg, gyro ≥ 7.6 m°/s).
    static func row(_ sample: IMUSample, thigh: IMUSample?, truth: Double?) -> String {
        let a = sample.accelerationG
        let w = sample.angularRateDPS
        var row = String(
            format: "%.3f,%.5f,%.5f,%.5f,%.4f,%.4f,%.4f,%.2f", sample.timeSeconds, a.x, a.y, a.z, w.x, w.y, w.z,
            sample.temperatureCelsius)
        if let thigh {
            let a = thigh.accelerationG
            let w = thigh.angularRateDPS
            row += String(format: ",%.5f,%.5f,%.5f,%.4f,%.4f,%.4f", a.x, a.y, a.z, w.x, w.y, w.z)
        }
        if let truth { row += String(format: ",%.3f", truth) }
        return row + "\n"
    }
}
