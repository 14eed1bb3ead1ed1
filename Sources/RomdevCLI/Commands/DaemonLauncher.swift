import Appliance
import CareStorage
import Foundation
import Fusion
import GPIO
import LinuxSystem
import Sensor
import ServiceSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Builds the daemon's parts in start-up order (store, sensor check, GPIO lines, control socket)
/// from the configuration, for the board or the simulator, and runs its loop.
struct DaemonLauncher {
    let configuration: ApplianceConfiguration
    /// Reads the configuration file again, for a reload (SIGHUP).
    let reloadConfiguration: () throws -> ApplianceConfiguration
    let store: StoreOptions
    let simulation: DaemonCommand.Simulation?

    func run(in context: CommandContext) throws {
        // First, so that the threads started below inherit the blocked stop and reload signals
        // and those stay pending for the loop's signal descriptor.
        let signals: SignalWatcher
        do {
            signals = try SignalWatcher()
        } catch {
            throw CommandFailure("cannot install the signal handlers", why: "\(error)")
        }
        defer { signals.restore() }
        let logger = ServiceLogger()
        let notifier: ServiceNotifier
        do {
            notifier = try ServiceNotifier(environment: context.environment)
        } catch {
            throw CommandFailure("cannot notify the service manager", why: "\(error)")
        }
        let output = JournalOutput(logger: logger, notifier: notifier)

        // 1. The care store (created empty when missing: the daemon then waits for 'romdev init').
        let storeOptions = StoreOptions(path: store.path ?? configuration.storePath)
        let location = try storeOptions.checkedLocation(in: context).location
        let careStore = try attempt("could not open the care store at \(location.path)") {
            try CareStore(
                path: location.path, access: .create, timeZone: configuration.timeZone ?? context.defaultTimeZone)
        }
        logger.notice("care store \(location.path) (from \(location.source.rawValue))")

        // 2. The sensor, checked once now and again while it is missing.
        let clocks = Clocks(simulation: simulation)
        let calibrationFile = try CalibrationFile(explicitPath: nil, store: storeOptions, in: context)
        let calibration = try calibrationFile.load()
        let sensorSettings = try MPU6050Configuration(sampleRateHz: configuration.sampleRateHz)
        let openSensor = sensorOpener(clock: clocks.sensor)
        let shankLocation =
            simulation.map { "simulated \($0.scenario.map { "\($0) " } ?? "")sensor" }
            ?? "\(configuration.i2cBus) at \(addressText(configuration.i2cAddress))"
        let sensorLocation =
            shankLocation + (configuration.thighAddress.map { ", thigh sensor at \(addressText($0))" } ?? "")
        let probe = SensorIdentityProbe(location: sensorLocation, openSensor: openSensor)
        var sensorProblem: MPU6050Error?
        do { try probe.check() } catch { sensorProblem = error }
        logger.info("calibration: \(calibrationFile.describe(calibration))")
        let procedures = SensorProcedureStarter(
            configuration: sensorSettings, calibration: calibration,
            pacing: simulation == nil ? .realTime : .sensorClock,
            saveCalibration: { calibration throws(AtomicFile.WriteError) in
                // The daemon calibrates the shank's board; the thigh's correction stays.
                try calibrationFile.save(calibration.keepingThighCorrection(of: try? calibrationFile.load()))
            },
            openSensor: openSensor)

        // 3. The button, LED and buzzer.
        let (panel, panelProblem, simulatedChip) = controlPanel(clock: clocks.monotonic, logger: logger)

        // 4. The control socket.
        let socketPath = ControlSocketLocation.path(environment: context.environment)
        let requests: ControlServerRequests?
        do {
            requests = ControlServerRequests(server: try ControlServer(path: socketPath), logger: logger)
            logger.info("control socket \(socketPath)")
        } catch .alreadyRunning(let path) {
            try? panel?.shutDown()
            throw CommandFailure(
                "another romdev daemon is running", why: "it answers on \(path)",
                hint: "stop it first (systemctl stop romdev); the GPIO lines and the sensor serve one daemon")
        } catch {
            requests = nil
            logger.warning("no control socket (\(error)); 'romdev measure' will not reach this daemon")
        }

        let wallClock: any WallClock
        if let simulation {
            let calendar = careStore.calendar
            let start =
                try simulation.startAt.map { argument -> Date in
                    guard let date = argument.date(in: calendar) else {
                        throw CommandFailure(
                            "the start time \(argument) does not exist in \(calendar.timeZone.identifier)")
                    }
                    return date
                } ?? context.now()
            wallClock = SimulatedWallClock(start: start, monotonic: clocks.monotonic)
            if let simulatedChip, simulation.presses == nil {
                StandardInputPresses.start(chip: simulatedChip, logger: logger)
            }
            logger.notice(
                "simulation: wall clock from \(LocalTime.iso8601(start, calendar: calendar)), time \(format(simulation.timeScale, 0))x"
            )
        } else {
            wallClock = SystemWallClock()
        }

        let daemon = ApplianceDaemon(
            parts: ApplianceDaemon.Parts(
                store: careStore, panel: panel, monotonic: clocks.monotonic, wallClock: wallClock, sensor: probe,
                measurements: procedures, output: output,
                clockSynchronized: simulation == nil ? { ClockSynchronization.isSynchronized() } : { true },
                stopRequested: { signals.isStopRequested }, reloadRequested: { signals.takeReloadRequest() },
                signalDescriptor: signals.descriptor,
                loadConfiguration: reloadConfiguration, requests: requests, calibrations: procedures),
            settings: ApplianceDaemon.Settings(
                configuration: configuration,
                watchdog: ServiceWatchdog(environment: context.environment, processID: getpid()),
                exitAfterMeasurements: simulation?.exitAfter))
        do {
            try daemon.run(sensorProblem: sensorProblem, panelProblem: panelProblem)
        } catch {
            try? panel?.shutDown()
            throw CommandFailure("cannot start the daemon's loop", why: "\(error)")
        }
    }

    /// The daemon's clocks: the host's, or one scaled simulated time for everything.
    struct Clocks {
        let monotonic: any GPIOClock
        let sensor: any MonotonicClock

        init(simulation: DaemonCommand.Simulation?) {
            if let simulation {
                let scaled = ScaledClock(rate: simulation.timeScale)
                // The board's button events carry CLOCK_MONOTONIC timestamps; time is not scaled then.
                monotonic = simulation.boardGPIO ? SystemGPIOClock() : scaled
                sensor = scaled
            } else {
                monotonic = SystemGPIOClock()
                sensor = SystemClock()
            }
        }
    }

    /// Opens the sensors for one session or probe: the I2C adapter (a handle per sensor), or a
    /// fresh simulated adapter, with the thigh's board when `thigh_address` is set, playing the
    /// session's protocol or the calibration unless `--simulate` named what the leg does.
    func sensorOpener(clock: any MonotonicClock) -> SensorProcedureStarter.OpenSensor {
        let address = configuration.i2cAddress
        let thighAddress = configuration.thighAddress
        let simulation = simulation
        let bus = configuration.i2cBus
        return { measuring throws(MPU6050Error) -> LegSensors in
            let device: SensorSource.Device =
                simulation.map {
                    .simulator(
                        scenario: $0.scenario ?? SensorSource.scenario(playing: measuring), seed: $0.seed,
                        address: address,
                        thighMotion: nil)
                } ?? .hardware(busPath: bus, address: address)
            let source = SensorSource(device, thighAddress: thighAddress)
            let opened: OpenedSensorBus
            do throws(I2CError) { opened = try source.openBus(clock: clock) } catch { throw .bus(error) }
            return try opened.drivers(address: address, thighAddress: source.thighAddress, clock: clock)
        }
    }

    /// Requests the lines on the board's chips (also with `--board-gpio`), or on a simulated chip
    /// whose output changes are logged. Lines that cannot be requested give no panel and the reason, with what to check:
    /// the daemon runs on without them.
    func controlPanel(clock: any GPIOClock, logger: ServiceLogger) -> (
        panel: ControlPanel?, problem: GPIOError?, chip: SimulatedGPIO?
    ) {
        var lines = configuration.gpio
        let locator: GPIOLineLocator
        var chip: SimulatedGPIO?
        if let simulation, !simulation.boardGPIO {
            let names = Self.lineNames(lines)
            let simulated = SimulatedGPIO(clock: clock, presses: simulation.presses ?? []) { change in
                let name = change.line.name.flatMap { names[$0] } ?? change.line.description
                logger.info(
                    "sim +\(format(Double(change.atNanoseconds) / 1e9, 2))s \(name) \(change.value ? "on" : "off")")
            }
            chip = simulated
            lines.chip = .path(simulated.info.path)
            locator = GPIOLineLocator(directory: "/nonexistent") { _ throws(GPIOError) in simulated }
        } else {
            locator = GPIOLineLocator()
        }
        do throws(GPIOError) {
            return (try ControlPanel(configuration: lines, locator: locator, clock: clock), nil, chip)
        } catch {
            return (nil, error, chip)
        }
    }

    /// `GPIO27` → `LED` for the simulator's log.
    static func lineNames(_ lines: GPIOConfiguration) -> [String: String] {
        var names: [String: String] = [:]
        if case .name(let name) = lines.led { names[name] = "LED" }
        if case .name(let name) = lines.button { names[name] = "button" }
        if case .line(.name(let name)) = lines.buzzer { names[name] = "buzzer" }
        return names
    }
}
