import Fusion
import LinuxSystem
import Sensor

/// Where a command's samples come from: the MPU-6050 on an I2C adapter, or the register-level
/// simulator (`--simulate`), which runs at real time behind the same driver; and whether a second
/// sensor on the thigh is read beside the shank's.
public struct SensorSource: Equatable, Sendable {
    public enum Device: Equatable, Sendable {
        case hardware(busPath: String, address: UInt8)
        /// A named `SimulationScenario` with its seed and, when given, the thigh's movement; the
        /// simulated sensor answers at 0x68 (the thigh's at 0x69 when one is fitted), so another
        /// `--address` shows what a missing sensor looks like.
        case simulator(scenario: String, seed: UInt64, address: UInt8, thighMotion: String?)
    }

    public var device: Device
    /// The thigh sensor's address on the same adapter, or nil without one.
    public var thighAddress: UInt8?
    /// Whether `--simulate=NAME` or `--scenario` named the simulated scenario, rather than the
    /// command leaving it to its default.
    public var namesScenario = false
    /// Whether the simulated board is the thigh's part (its own errors, see
    /// ``SimulationScenario/thighPart(seed:)``), calibrated on its own on the table.
    public var simulatesThighPart = false

    public init(_ device: Device, thighAddress: UInt8? = nil) {
        self.device = device
        self.thighAddress = thighAddress
    }

    static let busOption = Option.value(
        "bus", valueName: "path", help: "The I2C adapter's device node.", defaultValue: "/dev/i2c-1")
    static let addressOption = Option.value(
        "address", valueName: "address", help: "The sensor's address: 0x68 with AD0 low, 0x69 with AD0 high.",
        allowedValues: ["0x68", "0x69"], defaultValue: "0x68")
    static let thighAddressOption = Option.value(
        "thigh-address", valueName: "address",
        help: "The thigh sensor's address on the same bus: 0x69 (AD0 high), or none for the shank's sensor alone.",
        allowedValues: ["0x69", "none"], defaultValue: "none")
    static let simulateOption = Option.flag(
        "simulate", inlineValueName: "scenario",
        help: "Use the simulated sensor instead of the I2C bus; '--simulate=still' also names the scenario.",
        allowedValues: SimulationScenario.names)
    static func scenarioOption(default scenario: String) -> Option {
        Option.value(
            "scenario", valueName: "scenario", help: "What the simulated shank does (with --simulate).",
            allowedValues: SimulationScenario.names, defaultValue: scenario)
    }
    static let thighMotionOption = Option.value(
        "thigh-motion", valueName: "motion",
        help:
            "How the simulated thigh moves (with --simulate): still, small (±0.3°), sway (±3° over 6 s) or drift (3° over 20 s); default: the scenario's.",
        allowedValues: ThighMovement.names)
    static let seedOption = Option.value(
        "seed", valueName: "n",
        help: "Seed of the simulated sensor's errors and noise (with --simulate); a seed replays a session exactly.",
        defaultValue: "0")

    /// The options every sensor command takes, in help order.
    /// - Parameter defaultScenario: The scenario `--simulate` runs when none is named.
    static func options(defaultScenario: String) -> [Option] {
        [
            busOption, addressOption, thighAddressOption, simulateOption, scenarioOption(default: defaultScenario),
            thighMotionOption, seedOption,
        ]
    }

    /// Reads the sensor options.
    /// - Parameter defaultScenario: The scenario `--simulate` runs when none is named.
    /// - Throws: `UsageError` for a malformed seed, simulator options without `--simulate`, or
    ///   both sensors at one address.
    init(_ values: ParsedValues, defaultScenario: String) throws {
        let address: UInt8 = values.string(Self.addressOption) == "0x69" ? 0x69 : 0x68
        thighAddress = values.string(Self.thighAddressOption) == "0x69" ? 0x69 : nil
        if thighAddress == address {
            throw UsageError("The shank's and the thigh's sensors cannot both be at 0x69: give '--address 0x68'")
        }
        let seed = try values.value(Self.seedOption) { UInt64($0) } ?? 0
        let scenarioOption = Self.scenarioOption(default: defaultScenario)
        // `strings` holds only what was typed, not the default.
        let named = values.strings(Self.simulateOption).last
        let typed = values.strings(scenarioOption).last
        if let named, let typed {
            throw UsageError("Name the scenario once: '--simulate=\(named)' or '--scenario \(typed)'")
        }
        let scenario = named ?? typed
        namesScenario = scenario != nil
        let thighMotion = values.strings(Self.thighMotionOption).last
        guard values.isSet(Self.simulateOption) else {
            if !values.strings(Self.seedOption).isEmpty {
                throw UsageError("The option '--seed' only applies with '--simulate'")
            }
            if scenario != nil { throw UsageError("The option '--scenario' only applies with '--simulate'") }
            if thighMotion != nil { throw UsageError("The option '--thigh-motion' only applies with '--simulate'") }
            device = .hardware(
                busPath: try values.value(Self.busOption, PathArgument.any) ?? "/dev/i2c-1", address: address)
            return
        }
        device = .simulator(
            scenario: scenario ?? defaultScenario, seed: seed, address: address, thighMotion: thighMotion)
    }

    /// The simulated leg's movement for a procedure when none is named: the measurement's
    /// protocol, or (nil) the guided calibration.
    static func scenario(playing measuring: MeasurementProtocol?) -> String {
        switch measuring {
        case .extension: "knee-extension"
        case .arc: "knee-arc"
        case nil: "calibration"
        }
    }

    /// The source whose simulated patient does what the session will guide them through, unless a
    /// scenario was named.
    func playing(_ measuring: MeasurementProtocol) -> SensorSource {
        guard !namesScenario, case .simulator(_, let seed, let address, let thighMotion) = device else { return self }
        var source = self
        source.device = .simulator(
            scenario: Self.scenario(playing: measuring), seed: seed, address: address, thighMotion: thighMotion)
        return source
    }

    var address: UInt8 {
        switch device {
        case .hardware(_, let address), .simulator(_, _, let address, _): address
        }
    }

    /// `/dev/i2c-1`, or `simulated knee-extension (seed 0)`.
    var label: String {
        switch device {
        case .hardware(let path, _): path
        case .simulator(let scenario, let seed, _, _): "simulated \(scenario) (seed \(seed))"
        }
    }

    /// Opens the bus, one handle per sensor (the thigh's handle when one is configured); for the
    /// simulator, a fresh simulated adapter at real time with the shank's board and, when a thigh
    /// sensor is configured, the thigh's at 0x69.
    /// - Throws: `I2CError` when the adapter cannot be opened.
    func openBus(clock: any MonotonicClock) throws(I2CError) -> OpenedSensorBus {
        switch device {
        case .hardware(let path, _):
            let shank = try LinuxI2CBus(path: path)
            // A second descriptor of the adapter, with its own target address.
            var thigh: LinuxI2CBus?
            if thighAddress != nil { thigh = try LinuxI2CBus(path: path) }
            return OpenedSensorBus(bus: shank, thighBus: thigh, adapter: nil)
        case .simulator(let name, let seed, _, let thighMotion):
            var scenario = SimulationScenario.named(name, seed: seed) ?? .kneeExtension(seed: seed)
            if simulatesThighPart { scenario = scenario.thighPart() }
            if let movement = thighMotion.flatMap(ThighMovement.named) { scenario.motion.thighMovement = movement }
            let adapter = SimulatedI2CAdapter(scenario: scenario, fittingThigh: thighAddress != nil, clock: clock)
            return OpenedSensorBus(
                bus: adapter.open(), thighBus: thighAddress.map { _ in adapter.open() }, adapter: adapter)
        }
    }
}

extension SensorSource {
    /// Opens the bus and brings the sensors up in the standard configuration, the thigh's (when one
    /// is configured) like the shank's: what every command that samples does first. A configured
    /// thigh sensor that does not answer is refused before either sensor is reset.
    /// - Returns: The configured drivers, and the shank's simulated board when there is one.
    /// - Throws: `CommandFailure` naming the bus or the sensor (and its address), with a hint.
    func openConfiguredSensors(clock: any MonotonicClock) throws -> (sensors: LegSensors, simulator: SimulatedMPU6050?)
    {
        let opened: OpenedSensorBus
        do {
            opened = try openBus(clock: clock)
        } catch {
            throw CommandFailure("could not open the sensor", why: error.description, hint: error.hint)
        }
        return (try configuredSensors(on: opened, clock: clock), opened.adapter?.board(at: MPU6050.defaultAddress))
    }

    /// Brings up the sensors on an opened bus (see ``openConfiguredSensors(clock:)``).
    func configuredSensors(on opened: OpenedSensorBus, clock: any MonotonicClock) throws -> LegSensors {
        do {
            let sensors = try opened.drivers(address: address, thighAddress: thighAddress, clock: clock)
            try sensors.configure(.standard)
            return sensors
        } catch let error as MPU6050Error {
            throw CommandFailure("could not set up the sensor", why: error.description, hint: error.hint)
        } catch let error as LegSensorError where error.isMissing {
            throw CommandFailure(error.summary, why: error.error.description, hint: error.hint)
        } catch let error as LegSensorError {
            throw CommandFailure(
                "could not set up the \(error.sensor.rawValue) sensor", why: error.error.description, hint: error.hint)
        }
    }
}

/// A bus opened by `SensorSource`: a handle for the shank's sensor, one for the thigh's when one is
/// configured, and the simulated adapter behind them when there is one (for ground truth).
struct OpenedSensorBus {
    let bus: any I2CBus
    let thighBus: (any I2CBus)?
    let adapter: SimulatedI2CAdapter?

    /// The drivers on the handles.
    /// - Throws: `MPU6050Error.invalidAddress`, which the options rule out.
    func drivers(address: UInt8, thighAddress: UInt8?, clock: any MonotonicClock) throws(MPU6050Error) -> LegSensors {
        let shank = try MPU6050(bus: bus, address: address, clock: clock)
        guard let thighBus, let thighAddress else { return LegSensors(shank: shank, thigh: nil) }
        return LegSensors(shank: shank, thigh: try MPU6050(bus: thighBus, address: thighAddress, clock: clock))
    }
}
