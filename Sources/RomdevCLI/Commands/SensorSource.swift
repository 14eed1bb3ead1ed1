import LinuxSystem
import Sensor

/// Where a command's samples come from: the MPU-6050 on an I2C adapter, or the register-level
/// simulator (`--simulate`), which runs at real time behind the same driver.
public enum SensorSource: Equatable, Sendable {
    case hardware(busPath: String, address: UInt8)
    /// A named `SimulationScenario` with its seed; the simulated sensor answers at 0x68, so
    /// another `--address` shows what a missing sensor looks like.
    case simulator(scenario: String, seed: UInt64, address: UInt8)

    static let busOption = Option.value(
        "bus", valueName: "path", help: "The I2C adapter's device node.", defaultValue: "/dev/i2c-1")
    static let addressOption = Option.value(
        "address", valueName: "address", help: "The sensor's address: 0x68 with AD0 low, 0x69 with AD0 high.",
        allowedValues: ["0x68", "0x69"], defaultValue: "0x68")
    static let simulateOption = Option.flag(
        "simulate", inlineValueName: "scenario",
        help: "Use the simulated sensor instead of the I2C bus; '--simulate=still' also names the scenario.",
        allowedValues: SimulationScenario.names)
    static func scenarioOption(default scenario: String) -> Option {
        Option.value(
            "scenario", valueName: "scenario", help: "What the simulated shank does (with --simulate).",
            allowedValues: SimulationScenario.names, defaultValue: scenario)
    }
    static let seedOption = Option.value(
        "seed", valueName: "n",
        help: "Seed of the simulated sensor's errors and noise (with --simulate); a seed replays a session exactly.",
        defaultValue: "0")

    /// The options every sensor command takes, in help order.
    /// - Parameter defaultScenario: The scenario `--simulate` runs when none is named.
    static func options(defaultScenario: String) -> [Option] {
        [busOption, addressOption, simulateOption, scenarioOption(default: defaultScenario), seedOption]
    }

    /// Reads the sensor options.
    /// - Parameter defaultScenario: The scenario `--simulate` runs when none is named.
    /// - Throws: `UsageError` for a malformed seed, or simulator options without `--simulate`.
    init(_ values: ParsedValues, defaultScenario: String) throws {
        let address: UInt8 = values.string(Self.addressOption) == "0x69" ? 0x69 : 0x68
        let seed = try values.value(Self.seedOption) { UInt64($0) } ?? 0
        let scenarioOption = Self.scenarioOption(default: defaultScenario)
        // `strings` holds only what was typed, not the default.
        let named = values.strings(Self.simulateOption).last
        let typed = values.strings(scenarioOption).last
        if let named, let typed {
            throw UsageError("Name the scenario once: '--simulate=\(named)' or '--scenario \(typed)'")
        }
        let scenario = named ?? typed
        guard values.isSet(Self.simulateOption) else {
            if !values.strings(Self.seedOption).isEmpty {
                throw UsageError("The option '--seed' only applies with '--simulate'")
            }
            if scenario != nil { throw UsageError("The option '--scenario' only applies with '--simulate'") }
            self = .hardware(
                busPath: try values.value(Self.busOption, PathArgument.any) ?? "/dev/i2c-1", address: address)
            return
        }
        self = .simulator(scenario: scenario ?? defaultScenario, seed: seed, address: address)
    }

    var address: UInt8 {
        switch self {
        case .hardware(_, let address), .simulator(_, _, let address): address
        }
    }

    /// `/dev/i2c-1`, or `simulated knee-extension (seed 0)`.
    var label: String {
        switch self {
        case .hardware(let path, _): path
        case .simulator(let scenario, let seed, _): "simulated \(scenario) (seed \(seed))"
        }
    }

    /// Opens the bus; for the simulator, a fresh simulated sensor at real time.
    /// - Throws: `I2CError` when the adapter cannot be opened.
    func openBus(clock: any MonotonicClock) throws(I2CError) -> OpenedSensorBus {
        switch self {
        case .hardware(let path, _):
            return OpenedSensorBus(bus: try LinuxI2CBus(path: path), simulator: nil)
        case .simulator(let name, let seed, _):
            let scenario = SimulationScenario.named(name, seed: seed) ?? .kneeExtension(seed: seed)
            let simulator = SimulatedMPU6050(scenario: scenario, clock: clock)
            return OpenedSensorBus(bus: simulator, simulator: simulator)
        }
    }
}

extension SensorSource {
    /// Opens the bus and brings the sensor up in the standard configuration: what every command
    /// that samples does first.
    /// - Returns: The configured driver, and the simulator behind it when there is one.
    /// - Throws: `CommandFailure` naming the bus or the sensor, with the error's hint.
    func openConfiguredSensor(clock: any MonotonicClock) throws -> (sensor: MPU6050, simulator: SimulatedMPU6050?) {
        do {
            let opened = try openBus(clock: clock)
            let sensor = try MPU6050(bus: opened.bus, address: address, clock: clock)
            try sensor.configure(.standard)
            return (sensor, opened.simulator)
        } catch let error as I2CError {
            throw CommandFailure("could not open the sensor", why: error.description, hint: error.hint)
        } catch let error as MPU6050Error {
            throw CommandFailure("could not set up the sensor", why: error.description, hint: error.hint)
        }
    }
}

/// A bus opened by `SensorSource`, with the simulator behind it when there is one (for ground truth).
struct OpenedSensorBus {
    let bus: any I2CBus
    let simulator: SimulatedMPU6050?
}
