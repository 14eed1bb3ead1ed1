import LinuxSystem

/// The appliance's controls: the debounced button, and the LED and buzzer behind a
/// `CueController`, requested from a configuration.
///
/// The daemon's loop polls ``pollDescriptors`` with its other sources until
/// ``nextDeadlineNanoseconds`` at the latest, then calls ``service()``, which takes the button's
/// edges and moves the cues on; `shutDown()` on every way out. ``waitForButton(untilNanoseconds:)``
/// does the same for a program that waits for nothing else.
public final class ControlPanel {
    /// Opens a PWM buzzer; injectable so tests use a fake sysfs directory.
    public typealias PWMOpener = (_ chipDirectory: String, _ channel: Int) throws(GPIOError) -> any Buzzer

    /// The LED and buzzer.
    public let cues: CueController
    private let button: any GPIOInputLine
    private let outputs: [any GPIOOutputLine]
    private let clock: any GPIOClock
    private var debouncer: ButtonDebouncer
    private let buttonDescriptor: CInt
    /// Ends ``waitForButton(untilNanoseconds:)`` at the next debounce or cue step.
    private let alarm: any ClockAlarm

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
        do throws(GPIOError) {
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
            let button = try buttonAt.chip.requestInput(offset: buttonAt.offset, consumer: consumer)
            self.button = button
            do throws(GPIOError) {
                buttonDescriptor = try button.eventFileDescriptor()
                do {
                    alarm = try clock.makeAlarm()
                } catch {
                    throw .line(.waitForEdge, button.id, errno: error)
                }
            } catch {
                button.release()
                throw error
            }
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

    /// What to poll for the panel: the button's edge events.
    public var pollDescriptors: [PollDescriptor] {
        [PollDescriptor(buttonDescriptor, .readable)]
    }

    /// When ``service()`` is due without a new edge: the debouncer's or the cues' next step; nil
    /// when neither has one.
    public var nextDeadlineNanoseconds: UInt64? {
        [debouncer.nextDeadlineNanoseconds, cues.nextDeadline(afterNanoseconds: clock.nowNanoseconds)].compactMap { $0 }
            .min()
    }

    /// Takes the button's pending edges and moves the debouncer and the cues on to now. Never
    /// blocks.
    /// - Returns: The button events that became certain, in order.
    /// - Throws: A `GPIOError` from the button or the cue outputs.
    public func service() throws(GPIOError) -> [ButtonEvent] {
        var events: [ButtonEvent] = []
        for edge in try button.readEdges() {
            events += debouncer.handle(edge)
        }
        let now = clock.nowNanoseconds
        events += debouncer.advance(toNanoseconds: now)
        try cues.update(atNanoseconds: now)
        return events
    }

    /// Waits for button events until `deadline` (nanoseconds on the clock), updating the cues
    /// whenever they change meanwhile.
    ///
    /// - Returns: The events as soon as there are any; an empty list at the deadline, or earlier
    ///   when a signal interrupted the wait (so the caller can check its stop flag).
    /// - Throws: A `GPIOError` from the button or the cue outputs.
    public func waitForButton(untilNanoseconds deadline: UInt64) throws(GPIOError) -> [ButtonEvent] {
        while true {
            let events = try service()
            if !events.isEmpty || clock.nowNanoseconds >= deadline {
                return events
            }
            var descriptors = pollDescriptors + [PollDescriptor(alarm.descriptor, .readable)]
            do {
                try alarm.set(atNanoseconds: min(deadline, nextDeadlineNanoseconds ?? deadline))
                try clock.waitUntilReady(&descriptors)
            } catch {
                throw .line(.waitForEdge, button.id, errno: error)
            }
            if !descriptors.contains(where: \.isReady) {
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
