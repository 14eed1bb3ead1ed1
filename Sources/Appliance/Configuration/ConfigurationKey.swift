import Care
import Foundation
import Fusion
import GPIO

/// One key of the configuration file: its name, the comment printed above it, how its value is
/// read into an `ApplianceConfiguration`, and how a configuration's value is written back.
///
/// The table `all` is the single source of the file format: the parser takes the keys from it and
/// `--print-config` prints it, so the printed defaults are always the defaults in effect.
public struct ConfigurationKey: Sendable {
    public let name: String
    /// Why and how to set it, printed as `# ` lines above the key.
    public let comment: String
    /// Reads a value into the configuration; throws a message saying what was expected.
    let read: @Sendable (String, inout ConfigurationDraft) throws(ConfigurationValueError) -> Void
    /// The configuration's value as the file writes it; nil when the default is "automatic", which
    /// the file shows as a commented-out example.
    let render: @Sendable (ApplianceConfiguration) -> String?
    /// The example printed (commented out) when `render` gives nil.
    let example: String?

    /// Every key, in the order the default file lists them.
    public static let all: [ConfigurationKey] = [
        ConfigurationKey(
            name: "store",
            comment: """
                The care store (SQLite), shared with the romdev command line. Unset: $ROMDEV_STORE,
                else /var/lib/romdev/care.sqlite when that directory is writable, else
                $XDG_DATA_HOME/romdev/care.sqlite.
                """,
            read: { value, draft throws(ConfigurationValueError) in
                guard value.hasPrefix("/") else { throw ConfigurationValueError("expected an absolute path") }
                draft.configuration.storePath = value
            },
            render: { $0.storePath }, example: "/var/lib/romdev/care.sqlite"),
        ConfigurationKey(
            name: "i2c_bus",
            comment: "The I2C adapter the motion sensor is wired to (pins 3 and 5 of the header: /dev/i2c-1).",
            read: { value, draft throws(ConfigurationValueError) in
                guard value.hasPrefix("/dev/") else {
                    throw ConfigurationValueError("expected a device node such as /dev/i2c-1")
                }
                draft.configuration.i2cBus = value
            },
            render: { $0.i2cBus }, example: nil),
        ConfigurationKey(
            name: "i2c_address",
            comment:
                "The motion sensor's address: 0x68 with AD0 low, 0x69 with AD0 high (needed next to a DS3231 RTC).",
            read: { value, draft throws(ConfigurationValueError) in
                switch value.lowercased() {
                case "0x68": draft.configuration.i2cAddress = 0x68
                case "0x69": draft.configuration.i2cAddress = 0x69
                default: throw ConfigurationValueError("expected 0x68 or 0x69")
                }
            },
            render: { $0.i2cAddress == 0x69 ? "0x69" : "0x68" }, example: nil),
        ConfigurationKey(
            name: "thigh_address",
            comment: """
                A second motion sensor strapped to the thigh, on the same I2C adapter with AD0
                high: 0x69. With it the knee angle no longer depends on how the thigh lies.
                'none' for the shank's sensor alone.
                """,
            read: { value, draft throws(ConfigurationValueError) in
                switch value.lowercased() {
                case "0x69": draft.configuration.thighAddress = 0x69
                case "none": draft.configuration.thighAddress = nil
                default: throw ConfigurationValueError("expected 0x69 (AD0 high) or none")
                }
            },
            render: { $0.thighAddress == nil ? "none" : "0x69" }, example: nil),
        ConfigurationKey(
            name: "sample_rate",
            comment:
                "Samples per second during a measurement: 1000 divided by a whole number (100, 125, 200, 250, 500).",
            read: { value, draft throws(ConfigurationValueError) in
                guard let rate = Int(value), (4...1000).contains(rate), 1000 % rate == 0 else {
                    throw ConfigurationValueError("expected 1000 Hz divided by a whole number from 1 to 250, e.g. 200")
                }
                draft.configuration.sampleRateHz = rate
            },
            render: { "\($0.sampleRateHz)" }, example: nil),
        ConfigurationKey(
            name: "gpio_chip",
            comment: """
                The GPIO chip, by label (pinctrl-bcm2711, pinctrl-rp1) or device path. Unset: the
                lines are looked up by name on every /dev/gpiochip*, which survives the chip
                renumbering between Raspberry Pi kernels.
                """,
            read: { value, draft throws(ConfigurationValueError) in
                draft.configuration.gpio.chip = value.hasPrefix("/") ? .path(value) : .label(value)
            },
            render: { configuration in
                switch configuration.gpio.chip {
                case .none: nil
                case .path(let path): path
                case .label(let label): label
                }
            },
            example: "pinctrl-bcm2711"),
        line("button", comment: "The push button (to ground; pulled up inside).", keyPath: \.button),
        line("led", comment: "The LED (through 330 ohms to ground; high = lit).", keyPath: \.led),
        ConfigurationKey(
            name: "buzzer",
            comment: """
                The buzzer: a line name or offset for an active buzzer (high = sound), or
                pwm:CHIPDIR:CHANNEL for a passive piezo on sysfs PWM, e.g.
                pwm:/sys/class/pwm/pwmchip0:0 (GPIO18 with dtoverlay=pwm).
                """,
            read: { value, draft throws(ConfigurationValueError) in
                if value.hasPrefix("pwm:") {
                    let rest = value.dropFirst(4)
                    guard let colon = rest.lastIndex(of: ":"), rest[..<colon].hasPrefix("/"),
                        let channel = Int(rest[rest.index(after: colon)...]), channel >= 0
                    else {
                        throw ConfigurationValueError(
                            "expected pwm:CHIPDIR:CHANNEL such as pwm:/sys/class/pwm/pwmchip0:0")
                    }
                    draft.configuration.gpio.buzzer = .pwm(chipDirectory: String(rest[..<colon]), channel: channel)
                } else {
                    draft.pendingLines["buzzer"] = try LineValue(value)
                }
            },
            render: { configuration in
                switch configuration.gpio.buzzer {
                case .line(let selector): render(selector)
                case let .pwm(chip, channel): "pwm:\(chip):\(channel)"
                }
            },
            example: nil),
        ConfigurationKey(
            name: "button_debounce_ms",
            comment: "How long the button's level must be stable to count, in milliseconds (20-50).",
            read: { value, draft throws(ConfigurationValueError) in
                draft.debounceMilliseconds = try milliseconds(value, in: ButtonTiming.debounceRange)
            },
            render: { "\($0.gpio.buttonTiming.debounceNanoseconds / 1_000_000)" }, example: nil),
        ConfigurationKey(
            name: "long_press_ms",
            comment: "A press held this long (milliseconds, 500-10000) is a long press: it cancels a measurement.",
            read: { value, draft throws(ConfigurationValueError) in
                draft.longPressMilliseconds = try milliseconds(value, in: ButtonTiming.longPressRange)
            },
            render: { "\($0.gpio.buttonTiming.longPressNanoseconds / 1_000_000)" }, example: nil),
        ConfigurationKey(
            name: "reminder_first",
            comment: """
                Reminders on a day a measurement is due (local times, HH:MM): the chime sounds at
                reminder_first, then every reminder_interval, while not later than reminder_last,
                until the measurement is done. A reminder inside quiet hours stays silent.
                """,
            read: { value, draft throws(ConfigurationValueError) in draft.reminderFirst = try time(value) },
            render: { "\($0.reminders.first)" }, example: nil),
        ConfigurationKey(
            name: "reminder_interval",
            comment: "Time between reminders: minutes or hours, e.g. 30m, 2h, 1h30m.",
            read: { value, draft throws(ConfigurationValueError) in
                guard let minutes = parseMinutes(value), (1...1440).contains(minutes) else {
                    throw ConfigurationValueError("expected a duration from 1m to 24h such as 30m, 2h or 1h30m")
                }
                draft.reminderInterval = minutes
            },
            render: { renderMinutes($0.reminders.intervalMinutes) }, example: nil),
        ConfigurationKey(
            name: "reminder_last",
            comment: "The latest time a reminder may sound.",
            read: { value, draft throws(ConfigurationValueError) in draft.reminderLast = try time(value) },
            render: { "\($0.reminders.last)" }, example: nil),
        ConfigurationKey(
            name: "quiet_hours",
            comment: """
                Local times when the buzzer never sounds, START-END; a window may cross midnight
                (21:00-08:00). 'none' for no quiet hours.
                """,
            read: { value, draft throws(ConfigurationValueError) in
                if value == "none" {
                    draft.configuration.quietHours = nil
                    return
                }
                guard let window = QuietHours(value) else {
                    throw ConfigurationValueError("expected HH:MM-HH:MM with different ends, e.g. 21:00-08:00, or none")
                }
                draft.configuration.quietHours = window
            },
            render: { $0.quietHours?.description ?? "none" }, example: nil),
        ConfigurationKey(
            name: "time_zone",
            comment: """
                The IANA time zone of reminder times and quiet hours. Unset: the care store's
                zone (set by 'romdev init --tz').
                """,
            read: { value, draft throws(ConfigurationValueError) in
                guard let zone = TimeZone(careIdentifier: value) else {
                    throw ConfigurationValueError("unknown time zone; expected an IANA name such as Europe/Berlin")
                }
                draft.configuration.timeZone = zone
            },
            render: { $0.timeZone?.identifier }, example: "Europe/Berlin"),
        ConfigurationKey(
            name: "protocol",
            comment: """
                What a measurement guides the patient through. extension: extend the knee and
                return (the session ends there). arc: extend and return, then slide the foot back
                under the chair as far as possible and return, so the result has the knee's
                flexion past 90° too. Unset: what the care plan asks for (romdev init --protocol).
                """,
            read: { value, draft throws(ConfigurationValueError) in
                guard let chosen = MeasurementProtocol(rawValue: value) else {
                    throw ConfigurationValueError("expected extension or arc")
                }
                draft.configuration.measurementProtocol = chosen
            },
            render: { $0.measurementProtocol?.rawValue }, example: "arc"),
        ConfigurationKey(
            name: "require_clock_sync",
            comment: """
                yes: the clock is trusted only once it was synchronised since boot
                (/run/systemd/timesync/synchronized, or the kernel's NTP state) and is not earlier
                than the newest stored result; until then nothing chimes and no day counts as
                missed. no: trust the clock (boards with a battery-backed RTC).
                """,
            read: { value, draft throws(ConfigurationValueError) in
                switch value {
                case "yes": draft.configuration.requireClockSync = true
                case "no": draft.configuration.requireClockSync = false
                default: throw ConfigurationValueError("expected yes or no")
                }
            },
            render: { $0.requireClockSync ? "yes" : "no" }, example: nil),
    ]

    /// A key naming a GPIO line: a line name (`GPIO17`) or an offset on `gpio_chip`.
    private static func line(
        _ name: String, comment: String, keyPath: WritableKeyPath<GPIOConfiguration, GPIOLineSelector> & Sendable
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name,
            comment: comment + " A line name (GPIO17) or an offset on gpio_chip.",
            read: { value, draft throws(ConfigurationValueError) in draft.pendingLines[name] = try LineValue(value) },
            render: { render($0.gpio[keyPath: keyPath]) }, example: nil)
    }

    private static func render(_ selector: GPIOLineSelector) -> String {
        switch selector {
        case .name(let name): name
        case .offset(let offset, _): "\(offset)"
        }
    }

    private static func time(_ value: String) throws(ConfigurationValueError) -> TimeOfDay {
        guard let time = TimeOfDay(value) else { throw ConfigurationValueError("expected a time HH:MM such as 09:00") }
        return time
    }

    private static func milliseconds(_ value: String, in range: ClosedRange<Int>) throws(ConfigurationValueError) -> Int
    {
        guard let number = Int(value), range.contains(number) else {
            throw ConfigurationValueError("expected whole milliseconds from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// `30m`, `2h`, `1h30m` in minutes.
    static func parseMinutes(_ text: String) -> Int? {
        var total = 0
        var digits = ""
        var sawUnit = false
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if character == "h" || character == "m", let number = Int(digits), digits.count <= 4 {
                total += character == "h" ? number * 60 : number
                digits = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        return digits.isEmpty && sawUnit ? total : nil
    }

    static func renderMinutes(_ minutes: Int) -> String {
        switch (minutes / 60, minutes % 60) {
        case (0, let m): "\(m)m"
        case (let h, 0): "\(h)h"
        case (let h, let m): "\(h)h\(m)m"
        }
    }
}

/// Why a value was refused, without the file and line (the parser adds them).
struct ConfigurationValueError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// A line value before `gpio_chip` is known (it may come later in the file).
enum LineValue: Equatable {
    case name(String)
    case offset(UInt32)

    /// The kernel keeps 31 characters of a line's name (`GPIO_MAX_NAME_SIZE`, 32 with the NUL).
    static let longestName = 31

    init(_ text: String) throws(ConfigurationValueError) {
        if let offset = UInt32(text) {
            self = .offset(offset)
        } else if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            // All digits is an offset, never a line name, however large.
            throw ConfigurationValueError("a line offset is at most \(UInt32.max)")
        } else if !text.isEmpty, text.utf8.count <= Self.longestName,
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        {
            self = .name(text)
        } else {
            throw ConfigurationValueError(
                "expected a line name such as GPIO17 (at most \(Self.longestName) characters), or an offset on gpio_chip"
            )
        }
    }
}

/// A configuration being read: the fields that need the whole file to be checked wait here.
struct ConfigurationDraft {
    var configuration = ApplianceConfiguration()
    var pendingLines: [String: LineValue] = [:]
    var debounceMilliseconds: Int?
    var longPressMilliseconds: Int?
    var reminderFirst: TimeOfDay?
    var reminderInterval: Int?
    var reminderLast: TimeOfDay?
}
