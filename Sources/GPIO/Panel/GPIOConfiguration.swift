/// Which lines the appliance uses and how the button is timed. The defaults are the wiring in
/// hardware/README.md; `/etc/romdev/romdev.conf` overrides them.
public struct GPIOConfiguration: Equatable, Sendable {
    /// Where the buzzer is.
    public enum BuzzerOutput: Equatable, Sendable {
        /// An active buzzer switched by a GPIO line (high = sound).
        case line(GPIOLineSelector)
        /// A passive piezo on a sysfs PWM channel, e.g. `/sys/class/pwm/pwmchip0`, channel 0.
        case pwm(chipDirectory: String, channel: Int)
    }

    /// The chip to look up line names on; `nil` searches every `/dev/gpiochip*`.
    public var chip: GPIOChipSelector?
    /// The button (switch to ground, internal pull-up): `GPIO17` by default.
    public var button: GPIOLineSelector
    /// The LED (high = lit): `GPIO27` by default.
    public var led: GPIOLineSelector
    /// The buzzer: an active buzzer on `GPIO22` by default.
    public var buzzer: BuzzerOutput
    public var buttonTiming: ButtonTiming

    public init(
        chip: GPIOChipSelector? = nil, button: GPIOLineSelector = .name("GPIO17"),
        led: GPIOLineSelector = .name("GPIO27"), buzzer: BuzzerOutput = .line(.name("GPIO22")),
        buttonTiming: ButtonTiming = .standard
    ) {
        self.chip = chip
        self.button = button
        self.led = led
        self.buzzer = buzzer
        self.buttonTiming = buttonTiming
    }
}
