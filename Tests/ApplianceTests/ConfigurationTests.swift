import Appliance
import Foundation
import GPIO
import Testing

@Suite("Configuration file")
struct ConfigurationTests {
    private func parse(_ text: String) throws -> ApplianceConfiguration {
        try ApplianceConfiguration.parse(text, path: "test.conf")
    }

    private func error(_ text: String) -> ConfigurationError? {
        do {
            _ = try ApplianceConfiguration.parse(text, path: "test.conf")
            return nil
        } catch {
            return error
        }
    }

    @Test func defaultFileReadsBackToTheDefaults() throws {
        let text = ApplianceConfiguration.defaultFileText
        #expect(try parse(text) == ApplianceConfiguration())
        // Every key appears, set or as a commented example.
        for key in ConfigurationKey.all {
            #expect(text.contains("\n\(key.name) = ") || text.contains("\n#\(key.name) = "), "\(key.name)")
        }
    }

    @Test func defaultsAreTheWiringAndTheReminderRule() {
        let defaults = ApplianceConfiguration()
        #expect(defaults.gpio == GPIOConfiguration())
        #expect(defaults.i2cBus == "/dev/i2c-1")
        #expect(defaults.i2cAddress == 0x68)
        #expect(defaults.sampleRateHz == 200)
        #expect(defaults.reminders.times.map(\.description) == ["09:00", "11:00", "13:00", "15:00", "17:00", "19:00"])
        #expect(defaults.quietHours?.description == "21:00-08:00")
        #expect(defaults.timeZone == nil)
        #expect(defaults.storePath == nil)
        #expect(defaults.requireClockSync)
    }

    @Test func emptyTextAndCommentsMeanDefaults() throws {
        #expect(try parse("") == ApplianceConfiguration())
        #expect(try parse("# only a comment\n\n   \n\t# indented comment\r\n") == ApplianceConfiguration())
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try parse(
            """
            store = /srv/romdev/care.sqlite
            i2c_bus = /dev/i2c-3   # trailing comment
            i2c_address = 0x69
            sample_rate = 100
            gpio_chip = pinctrl-rp1
            button = 5
            led = GPIO6
            buzzer = pwm:/sys/class/pwm/pwmchip2:1
            button_debounce_ms = 40
            long_press_ms = 2000
            reminder_first = 8:30
            reminder_interval = 1h30m
            reminder_last = 21:00
            quiet_hours = 22:00-07:15
            time_zone = America/Los_Angeles
            protocol = arc
            require_clock_sync = no
            """)
        #expect(configuration.storePath == "/srv/romdev/care.sqlite")
        #expect(configuration.i2cBus == "/dev/i2c-3")
        #expect(configuration.i2cAddress == 0x69)
        #expect(configuration.sampleRateHz == 100)
        #expect(configuration.gpio.chip == .label("pinctrl-rp1"))
        #expect(configuration.gpio.button == .offset(5, chip: .label("pinctrl-rp1")))
        #expect(configuration.gpio.led == .name("GPIO6"))
        #expect(configuration.gpio.buzzer == .pwm(chipDirectory: "/sys/class/pwm/pwmchip2", channel: 1))
        let timing = try ButtonTiming(debounceMilliseconds: 40, longPressMilliseconds: 2000)
        #expect(configuration.gpio.buttonTiming == timing)
        #expect(
            configuration.reminders.times.map(\.description) == [
                "08:30", "10:00", "11:30", "13:00", "14:30", "16:00", "17:30", "19:00", "20:30",
            ])
        #expect(configuration.quietHours?.description == "22:00-07:15")
        #expect(configuration.timeZone?.identifier == "America/Los_Angeles")
        #expect(configuration.measurementProtocol == .arc)
        #expect(!configuration.requireClockSync)
        // And it writes itself back.
        #expect(try parse(configuration.fileText(withComments: true)) == configuration)
        #expect(try parse(configuration.fileText(withComments: false)) == configuration)
    }

    @Test func theThighSensorIsNoneUnlessSetTo0x69() throws {
        #expect(ApplianceConfiguration().thighAddress == nil)
        #expect(try parse("thigh_address = 0x69").thighAddress == 0x69)
        #expect(try parse("thigh_address = 0X69").thighAddress == 0x69)
        #expect(try parse("thigh_address = none").thighAddress == nil)
        var configured = ApplianceConfiguration()
        configured.thighAddress = 0x69
        #expect(try parse(configured.fileText(withComments: false)) == configured)
        #expect(ApplianceConfiguration.defaultFileText.contains("\nthigh_address = none\n"))
    }

    @Test(
        arguments: [
            ("thigh_address = 0x68", 1, "thigh_address", "expected 0x69 (AD0 high) or none, got '0x68'"),
            ("thigh_address = yes", 1, "thigh_address", "expected 0x69 (AD0 high) or none, got 'yes'"),
            (
                "i2c_address = 0x69\nthigh_address = 0x69", 2, "thigh_address",
                "the shank's and the thigh's sensors are both at 0x69; strap the shank's AD0 low (i2c_address = 0x68)"
            ),
        ] as [(String, Int, String, String)])
    func aThighAddressThatCannotBeIsAConfigurationError(text: String, line: Int, key: String, message: String) {
        let refused = error(text)
        #expect(refused?.line == line)
        #expect(refused?.key == key)
        #expect(refused?.message == message)
    }

    @Test func chipPathAndNoQuietHours() throws {
        let configuration = try parse("gpio_chip = /dev/gpiochip4\nquiet_hours = none\nbuzzer = 18")
        #expect(configuration.gpio.chip == .path("/dev/gpiochip4"))
        #expect(configuration.gpio.buzzer == .line(.offset(18, chip: .path("/dev/gpiochip4"))))
        #expect(configuration.quietHours == nil)
    }

    @Test(
        arguments: [
            ("i2c_address = 0x70", 1, "i2c_address", "expected 0x68 or 0x69, got '0x70'"),
            (
                "\n\nquiet_hours = 9pm", 3, "quiet_hours",
                "expected HH:MM-HH:MM with different ends, e.g. 21:00-08:00, or none, got '9pm'"
            ),
            (
                "quiet_hours = 08:00-08:00", 1, "quiet_hours",
                "expected HH:MM-HH:MM with different ends, e.g. 21:00-08:00, or none, got '08:00-08:00'"
            ),
            (
                "sample_rate = 300", 1, "sample_rate",
                "expected 1000 Hz divided by a whole number from 1 to 250, e.g. 200, got '300'"
            ),
            ("reminder_first = 24:00", 1, "reminder_first", "expected a time HH:MM such as 09:00, got '24:00'"),
            (
                "reminder_interval = 0m", 1, "reminder_interval",
                "expected a duration from 1m to 24h such as 30m, 2h or 1h30m, got '0m'"
            ),
            (
                "reminder_interval = 2 hours", 1, "reminder_interval",
                "expected a duration from 1m to 24h such as 30m, 2h or 1h30m, got '2 hours'"
            ),
            (
                "time_zone = Mars/Olympus", 1, "time_zone",
                "unknown time zone; expected an IANA name such as Europe/Berlin, got 'Mars/Olympus'"
            ),
            ("button_debounce_ms = 5", 1, "button_debounce_ms", "expected whole milliseconds from 20 to 50, got '5'"),
            (
                "buzzer = pwm:pwmchip0", 1, "buzzer",
                "expected pwm:CHIPDIR:CHANNEL such as pwm:/sys/class/pwm/pwmchip0:0, got 'pwm:pwmchip0'"
            ),
            ("store = care.sqlite", 1, "store", "expected an absolute path, got 'care.sqlite'"),
            ("protocol = flexion", 1, "protocol", "expected extension or arc, got 'flexion'"),
            ("require_clock_sync = maybe", 1, "require_clock_sync", "expected yes or no, got 'maybe'"),
            ("led =", 1, "led", "missing value; leave the key out (or comment it) for the default"),
            ("led = GPIO5\nled = GPIO6", 2, "led", "already set on line 1"),
        ] as [(String, Int, String, String)])
    func badValueNamesTheLineAndKey(text: String, line: Int, key: String, message: String) {
        let failure = error(text)
        #expect(failure == ConfigurationError(path: "test.conf", line: line, key: key, message: message))
        #expect(failure?.description == "test.conf:\(line): \(key): \(message)")
    }

    @Test func unknownKeyAndMalformedLine() {
        let unknown = error("# header\nbuton = GPIO17")
        #expect(unknown?.line == 2)
        #expect(unknown?.key == "buton")
        #expect(unknown?.message.hasPrefix("unknown key; the keys are store, i2c_bus,") == true)
        #expect(
            error("led GPIO5")
                == ConfigurationError(path: "test.conf", line: 1, message: "expected 'key = value', got 'led GPIO5'"))
        #expect(error(" = 5")?.message == "missing key before '='")
    }

    /// CRLF files were read as one line: the defaults applied, and `store` got a "\r\n" in it.
    @Test(arguments: ["\r\n", "\r", "\n"])
    func linesEndWithLFCRLFOrCR(end: String) throws {
        let text =
            ["# comment", "store = /srv/care.sqlite", "", "sample_rate = 100", "led = GPIO5"].joined(separator: end)
            + end
        let configuration = try parse(text)
        #expect(configuration.storePath == "/srv/care.sqlite")
        #expect(configuration.sampleRateHz == 100)
        #expect(configuration.gpio.led == .name("GPIO5"))
        #expect(error("sample_rate = 100\r\nsample_rate = 50\r\n")?.line == 2)
    }

    @Test func otherControlCharactersAreRefused() {
        #expect(
            error("led = GPIO5\nbutton = GPIO\u{1B}6")
                == ConfigurationError(
                    path: "test.conf", line: 2, message: "control character U+001B in the line"))
    }

    /// 4294967296 is no line name: all digits is an offset, and it does not fit one.
    @Test func lineOffsetsBeyondUInt32AreRefused() {
        #expect(
            error("gpio_chip = /dev/gpiochip0\nbutton = 4294967296")
                == ConfigurationError(
                    path: "test.conf", line: 2, key: "button",
                    message: "a line offset is at most 4294967295, got '4294967296'"))
    }

    @Test func lineNamesAndValuesAreBounded() {
        #expect(
            error("led = GPIO\(String(repeating: "9", count: 40))")?.message.hasPrefix(
                "expected a line name such as GPIO17 (at most 31 characters)") == true)
        #expect(
            error("store = /\(String(repeating: "a", count: 5000))")
                == ConfigurationError(
                    path: "test.conf", line: 1, key: "store", message: "the value is longer than 4095 bytes"))
    }

    @Test func theFactoryTimeZoneIsRefused() {
        #expect(error("time_zone = Factory")?.key == "time_zone")
    }

    @Test func longValuesAreCutInMessages() {
        let long = String(repeating: "9", count: 4000)
        let message = error("sample_rate = \(long)")?.message ?? ""
        #expect(message.count < 250)
        #expect(message.hasSuffix("… (4000 characters)'"))
    }

    @Test func aDirectoryOrDeviceIsNoConfigurationFile() {
        #expect(
            throws: ConfigurationError(
                path: "/", message: "cannot use the configuration file: it is a directory, not a regular file")
        ) {
            try ApplianceConfiguration.load(path: "/", mustExist: true)
        }
        #expect(
            throws: ConfigurationError(
                path: "/dev/null",
                message: "cannot use the configuration file: it is a character device, not a regular file")
        ) {
            try ApplianceConfiguration.load(path: "/dev/null", mustExist: true)
        }
    }

    @Test func checksThatNeedTheWholeFile() {
        #expect(
            error("button = 17")
                == ConfigurationError(
                    path: "test.conf", line: 1, key: "button",
                    message: "a line offset (17) needs gpio_chip; or give the line name, e.g. GPIO17"))
        #expect(
            error("led = GPIO17")
                == ConfigurationError(
                    path: "test.conf", line: 1, key: "led", message: "led and button are both on GPIO17"))
        #expect(
            error("reminder_first = 21:00")
                == ConfigurationError(
                    path: "test.conf", line: 1, key: "reminder_first",
                    message: "reminder_first (21:00) is later than reminder_last (20:00)"))
    }

    @Test func missingFileIsDefaultsOnlyWhenNotNamedExplicitly() throws {
        let path = NSTemporaryDirectory() + "romdev-missing-\(UUID().uuidString).conf"
        #expect(try ApplianceConfiguration.load(path: path, mustExist: false) == ApplianceConfiguration())
        #expect(throws: ConfigurationError(path: path, message: "cannot read the configuration file: no such file")) {
            try ApplianceConfiguration.load(path: path, mustExist: true)
        }
    }

    @Test func nonUTF8FileIsAnError() throws {
        let path = NSTemporaryDirectory() + "romdev-binary-\(UUID().uuidString).conf"
        try Data([0x66, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ConfigurationError(path: path, message: "the file is not UTF-8 text")) {
            try ApplianceConfiguration.load(path: path, mustExist: false)
        }
    }
}
