/// The appliance's controls: the debounced button, and the LED and buzzer behind a
/// `CueController`, requested from a configuration.
///
/// The daemon's loop calls `waitForButton(untilNanoseconds:)`, which keeps the cues playing while
/// it waits, and `shutDown()` on every way out.
public final class ControlPanel {
    /// Opens a PWM buzzer; injectable so tests use a fake sysfs directory.
    public typealias PWMOpener = (_ chipDirectory: String, _ channel: Int) throws(GPIOError) -> any Buzzer

    /// The LED and buzzer.
    public let cues: CueController
    private let button: any GPIOInputLine
    private let outputs: [any GPIOOutputLine]
    private let clock: any GPIOClock
    private var debouncer: ButtonDebouncer

    /// Requests the LED and buzzer (driven low, so nothing lights or sounds), then the button.
    ///
    /// - Parameters:
    ///   - configuration: The lines and button timing.
    ///   - locator: Finds the lines (on the simulated chip under `--simulate`).
    ///   - clock: The time base of the cues, the same as the button's edge timestamps.
    ///   - consumer: The name the kernel shows for the requested lines (`gpioinfo`).
    ///   - openPWM: How to open a PWM buzzer.
    /// - Throws: The first `GPIOError`; lines already requested are released first.
    public init(
        configuration: GPIOConfiguration, locator: GPIOLineLocator, clock: any GPIOClock,
        consumer: String = "romdev",
        openPWM: PWMOpener = { chip, channel throws(GPIOError) in try PWMBuzzer(chipDirectory: chip, channel: channel) }
    ) throws(GPIOError) {
        var outputs: [any GPIOOutputLine] = []
        do {
            let ledAt = try locator.locate(configuration.led, on: configuration.chip)
            let led = try ledAt.chip.requestOutput(offset: ledAt.offset, consumer: consumer, initialValue: false)
            outputs.append(led)
            let buzzer: any Buzzer
            switch configuration.buzzer {
            case .line(let selector):
                let at = try locator.locate(selector, on: configuration.chip)
                let line = try at.chip.requestOutput(offset: at.offset, consumer: consumer, initialValue: false)
                outputs.append(line)
                buzzer = LineBuzzer(line: line)
            case let .pwm(chipDirectory, channel):
                buzzer = try openPWM(chipDirectory, channel)
            }
            let buttonAt = try locator.locate(configuration.button, on: configuration.chip)
            button = try buttonAt.chip.requestInput(offset: buttonAt.offset, consumer: consumer)
            cues = CueController(led: led, buzzer: buzzer)
        } catch {
            for line in outputs {
                try? line.setValue(false)
                line.release()
            }
            throw error
        }
        self.outputs = outputs
        self.clock = clock
        debouncer = ButtonDebouncer(timing: configuration.buttonTiming, polarity: .activeLow)
    }

    /// Whether the button is down (debounced).
    public var isButtonPressed: Bool {
        debouncer.isPressed
    }

    /// Waits for button events until `deadline` (nanoseconds on the clock), updating the cues
    /// whenever they change meanwhile.
    ///
    /// - Returns: The events as soon as there are any; an empty list at the deadline, or earlier
    ///   when a signal interrupted the wait (so the caller can check its stop flag).
    /// - Throws: A `GPIOError` from the button or the cue outputs.
    public func waitForButton(untilNanoseconds deadline: UInt64) throws(GPIOError) -> [ButtonEvent] {
        while true {
            let now = clock.nowNanoseconds
            try cues.update(atNanoseconds: now)
            let due = debouncer.advance(toNanoseconds: now)
            if !due.isEmpty || now >= deadline {
                return due
            }
            let wake = [deadline, debouncer.nextDeadlineNanoseconds, cues.nextDeadline(afterNanoseconds: now)]
                .compactMap { $0 }.min() ?? deadline
            if let edge = try button.waitForEdge(timeoutNanoseconds: wake - min(wake, now)) {
                let events = debouncer.handle(edge)
                if !events.isEmpty {
                    return events
                }
            } else if clock.nowNanoseconds < wake {
                return []
            }
        }
    }

    /// Turns the LED and buzzer off and releases every line. Safe to call more than once.
    /// - Throws: The first error turning an output off, after everything was attempted.
    public func shutDown() throws(GPIOError) {
        defer {
            button.release()
            for line in outputs {
                line.release()
            }
        }
        try cues.stop()
    }
}
