/// Something that sounds a tone or falls silent: an active buzzer on a GPIO line (`LineBuzzer`) or
/// a passive piezo on a PWM channel (`PWMBuzzer`).
public protocol Buzzer: AnyObject {
    /// Sounds `tone`, or silences the buzzer for `nil`.
    func play(_ tone: BuzzerTone?) throws(GPIOError)
}

/// An active buzzer (own oscillator) switched by a GPIO line through a transistor: any tone is
/// simply "on".
public final class LineBuzzer: Buzzer {
    public let line: any GPIOOutputLine

    /// - Parameter line: The output driving the transistor's base, high = sound.
    public init(line: any GPIOOutputLine) {
        self.line = line
    }

    public func play(_ tone: BuzzerTone?) throws(GPIOError) {
        try line.setValue(tone != nil)
    }
}
