import Sensor

/// The guest's I2C adapters, found by the name their driver gives them in sysfs: bus numbers follow
/// load order.
enum I2CAdapter {
    static func devicePath(named name: String) throws -> String {
        let directory = "/sys/bus/i2c/devices"
        for entry in try SysfsFile.entries(directory) where entry.hasPrefix("i2c-") {
            if try SysfsFile.read("\(directory)/\(entry)/name") == name {
                return "/dev/\(entry)"
            }
        }
        throw Missing(name: name, directory: directory)
    }

    /// Opens the named adapter's node with `address` selected.
    static func openBus(named name: String, address: UInt8) throws -> LinuxI2CBus {
        let bus = try LinuxI2CBus(path: devicePath(named: name))
        try bus.selectAddress(address)
        return bus
    }

    struct Missing: Error, CustomStringConvertible {
        var name: String
        var directory: String
        var description: String { "no adapter named '\(name)' in \(directory) (is its module loaded?)" }
    }
}
