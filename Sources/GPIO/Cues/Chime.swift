/// A buzzer tone: its pitch matters to a passive piezo (driven by PWM); an active buzzer has its
/// own oscillator and only hears on/off.
public struct BuzzerTone: Equatable, Sendable {
    /// Frequency in hertz; piezo buzzers are loudest around 2–4 kHz.
    public let frequencyHz: Int

    public init(frequencyHz: Int) {
        self.frequencyHz = frequencyHz
    }
}

/// The buzzer's sounds. Each is a one-shot timeline of tones and silences (`nil`); the daemon
/// repeats the reminder at the reminder times.
public enum Chime: Equatable, Sendable, CaseIterable {
    /// A measurement is due: two short beeps and a longer one.
    case reminder
    /// Hold still (calibrating at rest): one short beep.
    case holdStill
    /// Start moving: two quick rising beeps.
    case go
    /// Start the second movement (the arc's flexion, the foot back under the chair): two quick
    /// falling beeps, the mirror of `go`.
    case flex
    /// Done and stored: three rising tones.
    case done
    /// Something failed: two long low tones.
    case error

    public var timeline: Timeline<BuzzerTone?> {
        typealias Step = Timeline<BuzzerTone?>.Step
        let low = BuzzerTone(frequencyHz: 1_000)
        let middle = BuzzerTone(frequencyHz: 2_000)
        let high = BuzzerTone(frequencyHz: 2_700)
        let steps: [Step]
        switch self {
        case .reminder:
            steps = [
                Step(middle, milliseconds: 150), Step(nil, milliseconds: 100),
                Step(middle, milliseconds: 150), Step(nil, milliseconds: 100),
                Step(high, milliseconds: 400),
            ]
        case .holdStill:
            steps = [Step(middle, milliseconds: 120)]
        case .go:
            steps = [Step(middle, milliseconds: 100), Step(nil, milliseconds: 60), Step(high, milliseconds: 150)]
        case .flex:
            steps = [Step(high, milliseconds: 100), Step(nil, milliseconds: 60), Step(middle, milliseconds: 150)]
        case .done:
            steps = [
                Step(middle, milliseconds: 150), Step(nil, milliseconds: 50),
                Step(high, milliseconds: 150), Step(nil, milliseconds: 50),
                Step(BuzzerTone(frequencyHz: 3_300), milliseconds: 300),
            ]
        case .error:
            steps = [Step(low, milliseconds: 500), Step(nil, milliseconds: 200), Step(low, milliseconds: 500)]
        }
        return Timeline(steps, repeats: false, rest: nil)
    }
}
