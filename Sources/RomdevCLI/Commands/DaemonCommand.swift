import Appliance
import Foundation

/// `romdev daemon`: the appliance itself (button, LED, buzzer, sensor and store), and its
/// configuration file.
struct DaemonCommand: CommandAction, Equatable {
    static let config = Option.value(
        "config", valueName: "path", help: "The configuration file.", defaultValue: ApplianceConfiguration.defaultPath)
    static let printConfig = Option.flag(
        "print-config", help: "Print the default configuration file, every key commented, and exit.")
    static let checkConfig = Option.flag(
        "check-config", help: "Read the configuration file, report the first problem (exit 78) or print the settings, and exit.")

    static let command = Command(
        name: "daemon", abstract: "Run the appliance: reminders, the button and guided measurements.",
        discussion: """
            The configuration file holds 'key = value' lines: the store, the sensor's I2C bus
            and address, the GPIO lines, the sample rate, the reminder times, quiet hours and
            the time zone; --print-config prints every key with its default and meaning. A
            missing default file means all defaults; a file given with --config must exist.

            EXIT CODES:
              0     Stopped by SIGTERM or SIGINT, or --print-config / --check-config done.
              1     Start-up failed: the care store or the GPIO lines could not be opened.
              64    Usage error (EX_USAGE).
              78    The configuration file cannot be used (EX_CONFIG); the message names the
                    file, the line and the key.
            """,
        options: [config, printConfig, checkConfig],
        make: { try DaemonCommand($0) })

    enum Mode: Equatable {
        case printConfig
        case checkConfig
    }

    var configPath: String
    /// Whether the path was given on the command line (then the file must exist).
    var configGiven: Bool
    var mode: Mode

    init(configPath: String, configGiven: Bool, mode: Mode) {
        self.configPath = configPath
        self.configGiven = configGiven
        self.mode = mode
    }

    init(_ values: ParsedValues) throws {
        configPath = try values.required(Self.config) { $0.isEmpty ? nil : $0 }
        configGiven = !values.strings(Self.config).isEmpty
        switch (values.isSet(Self.printConfig), values.isSet(Self.checkConfig)) {
        case (true, true):
            throw UsageError("Give either '--print-config' or '--check-config', not both")
        case (true, false):
            if configGiven { throw UsageError("'--print-config' prints the defaults; it takes no '--config'") }
            mode = .printConfig
        case (false, true):
            mode = .checkConfig
        case (false, false):
            throw UsageError("Missing expected argument '--print-config' or '--check-config'")
        }
    }

    func run(in context: CommandContext) throws {
        switch mode {
        case .printConfig:
            context.output.write(ApplianceConfiguration.defaultFileText)
        case .checkConfig:
            let configuration = try Self.loadConfiguration(path: configPath, mustExist: configGiven)
            let exists = FileManager.default.fileExists(atPath: configPath)
            context.output.line(exists ? "\(configPath): OK" : "\(configPath): not found, so every default applies")
            context.output.write(configuration.fileText(withComments: false))
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
