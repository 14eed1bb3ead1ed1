import Appliance
import Foundation
import GPIO
import Sensor

/// `romdev daemon`: the appliance itself (button, LED, buzzer, sensor and store), and its
/// configuration file.
struct DaemonCommand: CommandAction, Equatable {
    static let config = Option.value(
        "config", valueName: "path", help: "The configuration file.", defaultValue: ApplianceConfiguration.defaultPath)
    static let printConfig = Option.flag(
        "print-config", help: "Print the default configuration file, every key commented, and exit.")
    static let checkConfig = Option.flag(
        "check-config",
        help: "Read the configuration file, report the first problem (exit 78) or print the settings, and exit.")
    static let simulate = Option.flag(
        "simulate", inlineValueName: "scenario",
        help:
            "Run on the simulated sensor and GPIO chip, LED and buzzer changes in the log; '--simulate=still' names what the simulated leg does (by default each measurement's protocol, and the calibration).",
        allowedValues: SimulationScenario.names)
    static let seed = Option.value(
        "seed", valueName: "n", help: "Simulation only: seed of the simulated sensor's noise.", defaultValue: "0")
    static let pressAt = Option.value(
        "press-at", valueName: "list",
        help:
            "Simulation only: button presses after the start, e.g. 7s,40s+2s (+HOLD for a long press). Without it, each line on standard input is a short press ('long' for a long one)."
    )
    static let startAt = Option.value(
        "start-at", valueName: "time",
        help:
            "Simulation only: the wall clock's start, local time in the plan's zone, e.g. 2026-06-08T08:59:55 (default: now)."
    )
    static let exitAfter = Option.value(
        "exit-after", valueName: "n", help: "Simulation only: stop after N measurements have ended (stored or failed).")
    static let timeScale = Option.value(
        "time-scale", valueName: "factor",
        help: "Simulation only: run simulated time this many times faster than real time (1 to 1000).",
        defaultValue: "1")
    static let boardGPIO = Option.flag(
        "board-gpio",
        help:
            "Simulation only: the simulated sensor with the configuration's button, LED and buzzer on the board's GPIO chips, in real time."
    )

    static let command = Command(
        name: "daemon", abstract: "Run the appliance: reminders, the button and guided measurements.",
        discussion: """
            Opens the care store, checks the motion sensor, requests the button, LED and
            buzzer lines, then tells systemd it is ready. Until onboarding is done it does
            nothing else. On a day with a range-of-motion measurement due the LED flashes and
            the buzzer chimes at the reminder times (never in quiet hours, and not while the
            clock is not trusted) until the measurement is stored. A short press starts the
            guided measurement: one beep, hold still; two rising beeps, extend the knee and
            return; three rising tones once the result is stored. A long press cancels. A
            missing sensor is retried; without its GPIO lines it runs on without button, LED
            and buzzer, its status naming the line; SIGTERM, SIGINT or SIGQUIT aborts a running measurement
            without storing anything and exits 0. SIGHUP re-reads the configuration file: the
            reminder times, quiet hours, time zone and clock rule apply at once, the other keys
            at the next restart, and a file that does not load changes nothing. SIGPIPE,
            SIGUSR1, SIGUSR2 and SIGALRM are ignored. 'romdev measure', 'romdev calibrate' and the export
            service reach the daemon over its control socket ($ROMDEV_RUNTIME_DIR, else
            /run/romdev); a calibration is saved next to the store.

            The configuration file holds 'key = value' lines: the store, the sensor's I2C bus
            and address (and the thigh sensor's, thigh_address), the GPIO lines, the sample rate, the reminder times, quiet hours and
            the time zone; --print-config prints every key with its default and meaning. A
            missing default file means all defaults; a file given with --config must exist.

            EXIT CODES:
              0     Stopped by SIGTERM, SIGINT or SIGQUIT (or, simulated, after --exit-after), or
                    --print-config / --check-config done.
              1     Start-up failed: the care store could not be opened, or another daemon
                    answers on the control socket. Missing GPIO lines do not stop it: it
                    runs without button, LED and buzzer, and its status names the line.
              64    Usage error (EX_USAGE).
              78    The configuration file cannot be used (EX_CONFIG); the message names the
                    file, the line and the key.
            """,
        options: [config, printConfig, checkConfig] + StoreOptions.options
            + [simulate, seed, pressAt, startAt, exitAfter, timeScale, boardGPIO],
        make: { try DaemonCommand($0) })

    /// What `--simulate` and its options ask for.
    struct Simulation: Equatable {
        /// What the simulated leg does; nil: each measurement's protocol (knee-extension, or
        /// knee-arc for the arc), and the calibration's procedure.
        var scenario: String?
        var seed: UInt64
        /// Scripted presses; nil reads presses from standard input.
        var presses: [ScriptedPress]?
        var startAt: DateArgument?
        var exitAfter: Int?
        var timeScale: Double
        /// The board's GPIO lines instead of the simulated chip (presses come from the button).
        var boardGPIO = false
    }

    enum Mode: Equatable {
        case printConfig
        case checkConfig
        case run(simulation: Simulation?)
    }

    var configPath: String
    /// Whether the path was given on the command line (then the file must exist).
    var configGiven: Bool
    var store: StoreOptions
    var mode: Mode

    init(configPath: String, configGiven: Bool, store: StoreOptions, mode: Mode) {
        self.configPath = configPath
        self.configGiven = configGiven
        self.store = store
        self.mode = mode
    }

    init(_ values: ParsedValues) throws {
        configPath = try values.required(Self.config, PathArgument.file)
        configGiven = !values.strings(Self.config).isEmpty
        store = try StoreOptions(values)
        let simulation = try Self.simulation(values)
        switch (values.isSet(Self.printConfig), values.isSet(Self.checkConfig)) {
        case (true, true):
            throw UsageError("Give either '--print-config' or '--check-config', not both")
        case (true, false):
            if configGiven { throw UsageError("'--print-config' prints the defaults; it takes no '--config'") }
            mode = .printConfig
        case (false, true):
            mode = .checkConfig
        case (false, false):
            mode = .run(simulation: simulation)
        }
    }

    private static func simulation(_ values: ParsedValues) throws -> Simulation? {
        let simulationOnly = [seed, pressAt, startAt, exitAfter, timeScale]
        guard values.isSet(simulate) else {
            if let given = simulationOnly.first(where: { !values.strings($0).isEmpty })
                ?? (values.isSet(boardGPIO) ? boardGPIO : nil)
            {
                throw UsageError("The option '\(given.longName)' only applies with '--simulate'")
            }
            return nil
        }
        let boardGPIO = values.isSet(Self.boardGPIO)
        // The board's button gives kernel timestamps on the host's monotonic clock: no scripted
        // presses, no scaled time.
        if boardGPIO, let given = [pressAt, timeScale].first(where: { !values.strings($0).isEmpty }) {
            throw UsageError("The option '\(given.longName)' does not apply with '--board-gpio'")
        }
        return Simulation(
            scenario: values.strings(simulate).last,
            seed: try values.value(seed) { UInt64($0) } ?? 0,
            presses: try values.value(pressAt) { text -> [ScriptedPress] in try ScriptedPress.parseList(text) },
            startAt: try values.value(startAt, DateArgument.parse),
            exitAfter: try values.value(exitAfter) { text -> Int? in Int(text).flatMap { $0 >= 1 ? $0 : nil } },
            timeScale: try values.value(timeScale) { text -> Double? in
                NumberArgument.decimal(text).flatMap { (1...1000).contains($0) ? $0 : nil }
            } ?? 1,
            boardGPIO: boardGPIO)
    }

    func run(in context: CommandContext) throws {
        switch mode {
        case .printConfig:
            context.output.writeData(ApplianceConfiguration.defaultFileText)
        case .checkConfig:
            let configuration = try Self.loadConfiguration(path: configPath, mustExist: configGiven)
            let exists = FileManager.default.fileExists(atPath: configPath)
            context.output.line(exists ? "\(configPath): OK" : "\(configPath): not found, so every default applies")
            context.output.writeData(configuration.fileText(withComments: false))
        case .run(let simulation):
            let configuration = try Self.loadConfiguration(path: configPath, mustExist: configGiven)
            let path = configPath, mustExist = configGiven
            try DaemonLauncher(
                configuration: configuration,
                reloadConfiguration: { try ApplianceConfiguration.load(path: path, mustExist: mustExist) },
                store: store, simulation: simulation
            ).run(in: context)
        }
    }

    /// Reads the configuration, turning a problem into a failure with exit status 78 (EX_CONFIG).
    static func loadConfiguration(path: String, mustExist: Bool) throws -> ApplianceConfiguration {
        do {
            return try ApplianceConfiguration.load(path: path, mustExist: mustExist)
        } catch {
            throw CommandFailure(
                "invalid configuration", why: error.description,
                hint: "'romdev daemon --print-config' shows every key with its default and meaning", exitStatus: 78)
        }
    }
}
