/// Drives the LED and the buzzer from the current LED pattern and chime, and turns both off on
/// stop.
///
/// The owner's loop calls `update(atNanoseconds:)` at `nextDeadline(afterNanoseconds:)` (or
/// sooner, e.g. after a button edge); the controller writes an output only when its level changes.
/// `stop()` must run on every way out (normal exit, signals, errors): a crash must never leave
/// the buzzer sounding or the LED lit.
public final class CueController {
    private let led: any GPIOOutputLine
    private let buzzer: any Buzzer
    private var pattern = LEDPattern.off
    private var patternStart: UInt64 = 0
    private var chime: (chime: Chime, start: UInt64)?
    // What was last written; nil after a failed write, so the next update writes again.
    private var ledLevel: Bool?
    private var buzzerLevel: BuzzerTone??

    public init(led: any GPIOOutputLine, buzzer: any Buzzer) {
        self.led = led
        self.buzzer = buzzer
    }

    /// The LED pattern showing now.
    public var currentPattern: LEDPattern { pattern }

    /// The chime playing now, if one has not finished.
    public var currentChime: Chime? { chime?.chime }

    /// Shows `pattern` from `now` (a pattern shown again restarts) and writes the LED.
    public func show(_ pattern: LEDPattern, atNanoseconds now: UInt64) throws(GPIOError) {
        self.pattern = pattern
        patternStart = now
        try update(atNanoseconds: now)
    }

    /// Plays `chime` from `now`, cutting off one still playing, and writes the buzzer.
    public func play(_ chime: Chime, atNanoseconds now: UInt64) throws(GPIOError) {
        self.chime = (chime, now)
        try update(atNanoseconds: now)
    }

    /// Writes the levels due at `now`. Both outputs are attempted; the first error is thrown.
    public func update(atNanoseconds now: UInt64) throws(GPIOError) {
        let ledWanted = pattern.timeline.level(atNanoseconds: now - min(now, patternStart))
        var toneWanted: BuzzerTone?
        if let playing = chime {
            let elapsed = now - min(now, playing.start)
            if playing.chime.timeline.isFinished(atNanoseconds: elapsed) {
                chime = nil
            } else {
                toneWanted = playing.chime.timeline.level(atNanoseconds: elapsed)
            }
        }
        var firstError: GPIOError?
        if ledLevel != ledWanted {
            do {
                try led.setValue(ledWanted)
                ledLevel = ledWanted
            } catch {
                ledLevel = nil
                firstError = error
            }
        }
        if buzzerLevel != .some(toneWanted) {
            do {
                try buzzer.play(toneWanted)
                buzzerLevel = .some(toneWanted)
            } catch {
                buzzerLevel = nil
                firstError = firstError ?? error
            }
        }
        if let firstError {
            throw firstError
        }
    }

    /// When the next output change is due after `now`, or `nil` if nothing will change until a
    /// new pattern or chime.
    public func nextDeadline(afterNanoseconds now: UInt64) -> UInt64? {
        let patternElapsed = now - min(now, patternStart)
        var deadlines: [UInt64] = []
        if let change = pattern.timeline.nextChange(afterNanoseconds: patternElapsed) {
            deadlines.append(patternStart + change)
        }
        if let playing = chime {
            let elapsed = now - min(now, playing.start)
            if let change = playing.chime.timeline.nextChange(afterNanoseconds: elapsed) {
                deadlines.append(playing.start + change)
            } else if !playing.chime.timeline.isFinished(atNanoseconds: elapsed) {
                deadlines.append(playing.start + playing.chime.timeline.cycleNanoseconds)
            }
        }
        return deadlines.min()
    }

    /// Turns the LED and the buzzer off, whatever was written before (each is written even if the
    /// other fails), and forgets the pattern and chime.
    /// - Throws: The first write error, after both were attempted.
    public func stop() throws(GPIOError) {
        pattern = .off
        chime = nil
        ledLevel = nil
        buzzerLevel = nil
        try update(atNanoseconds: patternStart)
    }
}
