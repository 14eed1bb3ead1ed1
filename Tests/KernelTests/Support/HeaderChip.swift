/// A gpio-sim chip laid out like a Raspberry Pi header chip: lines numbered as BCM GPIOs, the
/// appliance's three named as the device tree names them.
enum HeaderChip {
    static let label = "romdev-test-header"
    static let button = 17
    static let buzzer = 22
    static let led = 27

    static func make() throws -> GPIOSimulator {
        try GPIOSimulator(
            lineCount: 28, names: [button: "GPIO17", buzzer: "GPIO22", led: "GPIO27"], label: label)
    }
}
