import Foundation
import Fusion
import GPIO

/// Everything the daemon reads from `/etc/romdev/romdev.conf`. The defaults are the wiring of
/// hardware/README.md and the care plan's reminder rule; `ConfigurationKey.all` documents each
/// field and `defaultFileText` prints them.
public struct ApplianceConfiguration: Equatable, Sendable {
    /// The default configuration file.
    public static let defaultPath = "/etc/romdev/romdev.conf"

    /// The care store; nil means the command line's rules (`$ROMDEV_STORE`, the system store,
    /// the user's data directory).
    public var storePath: String?
    /// The I2C adapter the sensor is on.
    public var i2cBus = "/dev/i2c-1"
    /// The sensor's address: 0x68 (AD0 low) or 0x69 (AD0 high).
    public var i2cAddress: UInt8 = 0x68
    /// The thigh sensor's address on the same adapter (0x69, AD0 high), or nil without one.
    public var thighAddress: UInt8?
    /// The sensor's output rate during a measurement, in Hz.
    public var sampleRateHz = 200
    /// What a measurement guides the patient through; nil means what the care plan asks for.
    public var measurementProtocol: MeasurementProtocol?
    /// Button, LED and buzzer lines and the button timing.
    public var gpio = GPIOConfiguration()
    /// When the reminder chime sounds on a day a measurement is due.
    public var reminders = ReminderTimes.standard
    /// When the buzzer never sounds; nil for none.
    public var quietHours: QuietHours? = QuietHours(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 8))
    /// The zone of reminder times and quiet hours; nil means the care store's zone (set by
    /// `romdev init`).
    public var timeZone: TimeZone?
    /// Whether the wall clock must have been synchronised (NTP) since boot before the daemon
    /// chimes or calls a day missed. Boards with a battery-backed RTC may turn this off.
    public var requireClockSync = true

    public init() {}
}
