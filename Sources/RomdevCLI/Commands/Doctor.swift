import Foundation
import LinuxSystem
import Sensor

extension Command {
    /// `romdev doctor`: checks the sensor end to end, each check with a fix hint.
    static let doctor = Command(
        name: "doctor",
        abstract: "Check the sensor: bus, address, identity, configuration and a still reading.",
        discussion: """
            Runs each check in turn and prints pass or FAIL, with a hint on how to fix a
            failure; the checks after a failure are skipped. Keep the sensor still while it
            runs: the last check reads half a second of samples and expects 1 g and no
            rotation. --simulate checks the simulated sensor lying still. With a thigh
            sensor (--thigh-address 0x69) its checks follow the shank's, each line naming
            the sensor; without one the thigh is reported as not configured.

            Exits 1 when any check fails.
            """,
        options: SensorSource.options(defaultScenario: "still") + [DoctorAction.jsonOption, CalibrationFile.option]
            + StoreOptions.options,
        make: { values in
            DoctorAction(
                source: try SensorSource(values, defaultScenario: "still"),
                json: values.isSet(DoctorAction.jsonOption),
                calibrationPath: try values.value(CalibrationFile.option, PathArgument.file),
                store: try StoreOptions(values))
        })
}

/// `romdev doctor [--json]` with its sensor options.
public struct DoctorAction: CommandAction, Equatable {
    static let jsonOption = Option.flag("json", help: "Print the checks as JSON.")

    public var source: SensorSource
    public var json: Bool
    var calibrationPath: String?
    var store: StoreOptions

    public func run(in context: CommandContext) throws {
        let calibration = CalibrationStatus(
            file: try CalibrationFile(explicitPath: calibrationPath, store: store, in: context), now: context.now())
        let checks = SensorCheckup(source: source, clock: SystemClock()).run()
        let failed = checks.filter { $0.status == .fail }.count
        if json {
            let report = DoctorReport(
                source: source.label, address: addressText(source.address),
                thighAddress: source.thighAddress.map(addressText), passed: failed == 0, checks: checks,
                calibration: calibration)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            context.output.line(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            context.output.line("Calibration: \(calibration.detail)")
            let thigh = source.thighAddress.map { ", thigh sensor \(addressText($0))" } ?? ""
            context.output.line("Sensor checks on \(source.label), address \(addressText(source.address))\(thigh):")
            for check in checks {
                let status = check.status == .fail ? "FAIL" : check.status.rawValue
                let name = check.sensor.map { "\($0.rawValue) \(check.name)" } ?? check.name
                context.output.line("  \(status)  \(name.padded(toWidth: 20)) \(check.detail)")
                if let hint = check.hint { context.output.line("        fix: \(hint)") }
            }
            let run = checks.filter { $0.status != .skip }.count
            if failed == 0 { context.output.line("All \(run) checks passed.") }
        }
        if failed > 0 {
            throw CommandFailure("\(failed) of \(checks.count) sensor checks failed")
        }
        if calibration.status == .invalid {
            throw CommandFailure(
                "the calibration at \(calibration.path) cannot be used", why: calibration.problem,
                hint: "run 'romdev calibrate' again, or name another file")
        }
    }
}

/// What `doctor` says about the calibration file: valid (with its age), missing, or unusable.
struct CalibrationStatus: Encodable {
    enum Status: String, Encodable {
        case valid, missing, invalid
    }

    var path: String
    var status: Status
    /// Seconds since the file was written (its modification time), when it is valid.
    var ageSeconds: Double?
    var detail: String
    /// Why the file cannot be used, when it cannot.
    var problem: String?

    enum CodingKeys: String, CodingKey {
        case path, status, ageSeconds = "age_seconds", detail
    }

    init(file: CalibrationFile, now: Date) {
        path = file.path
        do {
            guard let calibration = try file.load() else {
                status = .missing
                detail = "none at \(file.path); run 'romdev calibrate'"
                return
            }
            status = .valid
            let written = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]) as? Date
            ageSeconds = written.map { max(0, now.timeIntervalSince($0)) }
            let age = ageSeconds.map { Self.age($0) } ?? "of unknown age"
            detail =
                "valid, \(age) (\(file.path)), mounting \(calibration.mounting == nil ? "not measured" : "measured")"
        } catch {
            status = .invalid
            problem = (error as? CommandFailure)?.why ?? "\(error)"
            detail = "UNUSABLE: \(error)"
        }
    }

    /// "3 days old", "5 hours old", "12 minutes old".
    static func age(_ seconds: Double) -> String {
        let (value, unit): (Int, String) =
            seconds >= 2 * 86_400
            ? (Int(seconds / 86_400), "day")
            : seconds >= 2 * 3600 ? (Int(seconds / 3600), "hour") : (Int(seconds / 60), "minute")
        return "\(value) \(unit)\(value == 1 ? "" : "s") old"
    }
}

/// The JSON form of a checkup.
struct DoctorReport: Encodable {
    var source: String
    var address: String
    /// Nil (null) without a thigh sensor.
    var thighAddress: String?
    var passed: Bool
    var checks: [DoctorCheck]
    var calibration: CalibrationStatus

    enum CodingKeys: String, CodingKey {
        case source, address, thighAddress = "thigh_address", passed, checks, calibration
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(address, forKey: .address)
        try container.encode(thighAddress, forKey: .thighAddress)
        try container.encode(passed, forKey: .passed)
        try container.encode(checks, forKey: .checks)
        try container.encode(calibration, forKey: .calibration)
    }
}

/// One check's outcome.
struct DoctorCheck: Encodable, Equatable {
    enum Status: String, Encodable {
        case pass, fail, skip
    }

    var name: String
    /// Which sensor the check is about; nil for the bus and the adapter.
    var sensor: LegSensorError.Sensor?
    var status: Status
    var detail: String
    var hint: String?

    init(
        name: String, sensor: LegSensorError.Sensor? = nil, status: Status, detail: String, hint: String? = nil
    ) {
        self.name = name
        self.sensor = sensor
        self.status = status
        self.detail = detail
        self.hint = hint
    }
}

/// Runs the sensor checks in order: bus and adapter, then for the shank's sensor and the thigh's
/// (when one is configured) device, identity, configuration, sampling, at rest. A failure skips the
/// rest of its sensor's checks; a failed bus or adapter skips every sensor's.
struct SensorCheckup {
    static let busNames = ["bus", "adapter"]
    static let sensorNames = ["device", "identity", "configuration", "sampling", "at rest"]
    /// Sensor-clock time of the sample check.
    static let sampleSeconds = 0.5

    let source: SensorSource
    let clock: any MonotonicClock

    func run() -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        /// Both sensors' checks, skipped after a failure of the bus.
        func skippedSensors() -> [DoctorCheck] {
            [LegSensorError.Sensor.shank, .thigh].flatMap { skipped in
                skipped == .thigh && source.thighAddress == nil
                    ? [Self.thighNotConfigured]
                    : Self.sensorNames.map {
                        DoctorCheck(
                            name: $0, sensor: skipped, status: .skip, detail: "not checked after the failure above")
                    }
            }
        }
        func fail(_ detail: String, hint: String?) -> [DoctorCheck] {
            checks.append(DoctorCheck(name: Self.busNames[checks.count], status: .fail, detail: detail, hint: hint))
            return checks
                + Self.busNames.dropFirst(checks.count).map {
                    DoctorCheck(name: $0, status: .skip, detail: "not checked after the failure above")
                } + skippedSensors()
        }

        let opened: OpenedSensorBus
        do {
            opened = try source.openBus(clock: clock)
        } catch {
            return fail(error.description, hint: error.hint)
        }
        let bus = opened.bus
        checks.append(DoctorCheck(name: "bus", status: .pass, detail: "\(bus.devicePath) opened"))

        do {
            let missing = I2CFunctionality.mpu6050Driver.subtracting(try bus.functionality())
            guard missing.isEmpty else {
                return fail(
                    MPU6050Error.adapterLacksFunctionality(devicePath: bus.devicePath, missing: missing).description,
                    hint:
                        "use the SoC's I2C controller (i2c_arm on a Raspberry Pi), not a bit-banged or SMBus-only adapter"
                )
            }
        } catch {
            return fail(error.description, hint: error.hint)
        }
        checks.append(
            DoctorCheck(name: "adapter", status: .pass, detail: "SMBus byte data and I2C block reads supported"))

        checks += checkSensor(.shank, bus: bus, address: source.address)
        if let thighAddress = source.thighAddress, let thighBus = opened.thighBus {
            checks += checkSensor(.thigh, bus: thighBus, address: thighAddress)
        } else {
            checks.append(Self.thighNotConfigured)
        }
        return checks
    }

    static let thighNotConfigured = DoctorCheck(
        name: "device", sensor: .thigh, status: .skip,
        detail: "not configured (--thigh-address none; thigh_address = none for the daemon)")

    /// One sensor's checks, from its address acknowledging to a still reading.
    func checkSensor(_ which: LegSensorError.Sensor, bus: any I2CBus, address: UInt8) -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        func pass(_ detail: String) {
            checks.append(
                DoctorCheck(name: Self.sensorNames[checks.count], sensor: which, status: .pass, detail: detail))
        }
        func fail(_ detail: String, hint: String?) -> [DoctorCheck] {
            checks.append(
                DoctorCheck(
                    name: Self.sensorNames[checks.count], sensor: which, status: .fail, detail: detail, hint: hint))
            return checks
                + Self.sensorNames.dropFirst(checks.count).map {
                    DoctorCheck(name: $0, sensor: which, status: .skip, detail: "not checked after the failure above")
                }
        }

        let sensor: MPU6050
        do {
            sensor = try MPU6050(bus: bus, address: address, clock: clock)
            let part = try sensor.identify()
            pass("\(addressText(address)) acknowledged")
            pass("\(part.rawValue) (WHO_AM_I \(addressText(part.whoAmI)))")
        } catch {
            if case .unexpectedIdentity = error {
                pass("\(addressText(address)) acknowledged")
            }
            let hint = LegSensorError(which, error).hint
            return fail(error.description, hint: hint)
        }

        do {
            try sensor.configure(.standard)
            let readBack = try sensor.readConfiguration()
            guard readBack == .standard else {
                return fail(
                    "read back \(readBack.map(\.description) ?? "unknown values") after writing \(MPU6050Configuration.standard)",
                    hint: "power-cycle the sensor; if it persists, check wiring and supply voltage")
            }
            pass("\(MPU6050Configuration.standard) written and read back")
        } catch {
            return fail(error.description, hint: error.hint)
        }

        var samples: [IMUSample] = []
        var lost = 0
        do {
            try sensor.record(seconds: Self.sampleSeconds) { batch in
                samples += batch.samples
                lost += batch.gap?.count ?? 0
            }
        } catch {
            return fail(
                "\(samples.count) samples, then: \(error)", hint: (error as? MPU6050Error)?.hint)
        }
        let expected = Int(Self.sampleSeconds * Double(MPU6050Configuration.standard.sampleRateHz))
        let temperature = samples.last?.temperatureCelsius ?? .nan
        guard samples.count == expected, lost == 0, (-40...85).contains(temperature) else {
            return fail(
                "\(samples.count) of \(expected) samples, \(lost) lost, die at \(format(temperature, 1)) °C",
                hint: "the FIFO lost samples or the temperature is implausible: check the supply voltage "
                    + "and that nothing else uses the bus")
        }
        pass(
            "\(samples.count) samples in \(format(Self.sampleSeconds, 2)) s on the sensor clock, die at \(format(temperature, 1)) °C"
        )

        let count = Double(samples.count)
        let meanAcceleration = samples.map(\.accelerationG).reduce(.zero, +) / count
        let meanRate = samples.map(\.angularRateDPS).reduce(.zero, +) / count
        let rateVariance =
            samples.map { ($0.angularRateDPS - meanRate) * ($0.angularRateDPS - meanRate) }
            .reduce(.zero, +) / count
        let gravity = (meanAcceleration * meanAcceleration).sum().squareRoot()
        let offset = max(abs(meanRate.x), abs(meanRate.y), abs(meanRate.z))
        let noise = rateVariance.max().squareRoot()
        let detail =
            "|a| = \(format(gravity, 3)) g, gyro mean (\(format(meanRate.x, 2)), \(format(meanRate.y, 2)), "
            + "\(format(meanRate.z, 2))) °/s, noise \(format(noise, 3)) °/s rms"
        // Limits from the datasheet: zero-g offsets ≤ 80 mg and scale ±3 % (so 1 g reads within
        // ±0.15 g), gyro zero-rate output ±20 °/s; at rest the gyro noise is ~0.03 °/s rms.
        guard (0.85...1.15).contains(gravity), offset <= 25, noise <= 1 else {
            return fail(
                detail,
                hint: "keep the sensor still on a flat surface while checking; if it was still, |a| far "
                    + "from 1 g or a gyro offset beyond ±20 °/s (the datasheet tolerance) means a faulty sensor")
        }
        pass(detail)
        return checks
    }
}

/// `0x68`.
func addressText(_ value: UInt8) -> String {
    String(format: "0x%02X", value)
}

/// A number with a fixed count of decimals.
func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}
