import Foundation

/// A gpio-sim chip made through configfs for one test, removed by `remove()`.
///
/// The consumer side is an ordinary `/dev/gpiochipN`; the simulator side drives inputs through
/// `sim_gpioN/pull` (the only way to move an input) and shows the level of every line, driven
/// outputs included, in `sim_gpioN/value`. A released line reads its pull again.
final class GPIOSimulator {
    enum Pull: String {
        case up = "pull-up"
        case down = "pull-down"
    }

    /// The chip's driver label, as `GPIOChipInfo.label` reports it.
    let label: String
    /// The consumer side, e.g. `/dev/gpiochip0`.
    let chipPath: String
    private let device: String
    private let lineDirectories: [String]
    private let simulatorSide: String

    /// Creates and brings up the chip.
    /// - Parameters:
    ///   - lineCount: Lines on the chip.
    ///   - names: Line names by offset, as a device tree's `gpio-line-names`.
    ///   - label: The chip's label.
    init(lineCount: Int, names: [Int: String], label: String) throws {
        self.label = label
        device = "/sys/kernel/config/gpio-sim/romdev-\(UUID().uuidString.prefix(8).lowercased())"
        let bank = device + "/bank0"
        lineDirectories = names.keys.sorted().map { "\(bank)/line\($0)" }
        try SysfsFile.makeDirectory(device)
        do {
            try SysfsFile.makeDirectory(bank)
            try SysfsFile.write(String(lineCount), to: bank + "/num_lines")
            try SysfsFile.write(label, to: bank + "/label")
            for (offset, name) in names {
                try SysfsFile.makeDirectory("\(bank)/line\(offset)")
                try SysfsFile.write(name, to: "\(bank)/line\(offset)/name")
            }
            try SysfsFile.write("1", to: device + "/live")
            let chipName = try SysfsFile.read(bank + "/chip_name")
            let deviceName = try SysfsFile.read(device + "/dev_name")
            chipPath = "/dev/" + chipName
            simulatorSide = "/sys/devices/platform/\(deviceName)/\(chipName)"
        } catch {
            Self.tearDown(device: device, lines: lineDirectories)
            throw error
        }
    }

    /// Pulls an input line up or down, as a switch or resistor on the board would; an edge follows
    /// when the level changes and the line is requested with edge events.
    func setPull(_ pull: Pull, offset: Int) throws {
        try SysfsFile.write(pull.rawValue, to: "\(simulatorSide)/sim_gpio\(offset)/pull")
    }

    func pull(offset: Int) throws -> Pull? {
        Pull(rawValue: try SysfsFile.read("\(simulatorSide)/sim_gpio\(offset)/pull"))
    }

    /// The line's level: what a requested output drives, else what the pull gives.
    func isHigh(offset: Int) throws -> Bool {
        let text = try SysfsFile.read("\(simulatorSide)/sim_gpio\(offset)/value")
        guard text == "0" || text == "1" else {
            throw SysfsError(
                operation: "parse '\(text)' from", path: "\(simulatorSide)/sim_gpio\(offset)/value",
                errno: .invalidArgument)
        }
        return text == "1"
    }

    /// Takes the chip down and deletes its configuration. Lines still requested keep it busy, so
    /// release them first.
    func remove() {
        Self.tearDown(device: device, lines: lineDirectories)
    }

    private static func tearDown(device: String, lines: [String]) {
        try? SysfsFile.write("0", to: device + "/live")
        for line in lines {
            try? SysfsFile.removeDirectory(line)
        }
        try? SysfsFile.removeDirectory(device + "/bank0")
        try? SysfsFile.removeDirectory(device)
    }
}
