import Foundation
import GPIO
import ServiceSupport

/// What the patient sees and hears, and what `systemctl status` shows.
extension ApplianceDaemon {
    func play(_ chime: Chime) {
        do {
            try parts.panel?.cues.play(chime, atNanoseconds: now)
        } catch {
            log(.error, "cannot sound the buzzer: \(error)")
        }
    }

    /// Shows a pattern for the fault-cue time (or its own length), then the day's pattern again.
    func showTransient(_ pattern: LEDPattern, for nanoseconds: UInt64) {
        transientPattern = (pattern, now + nanoseconds)
        shownPattern = nil
    }

    /// The LED follows, in order: a transient pattern, a running session, the store or sensor
    /// failing, a measurement due.
    func updateLED() {
        if let transient = transientPattern, now >= transient.until {
            transientPattern = nil
            shownPattern = nil
        }
        let wanted: LEDPattern
        if let transient = transientPattern {
            wanted = transient.pattern
        } else if isBusy {
            wanted = .measuring
        } else if storeProblem != nil {
            wanted = .fault(.storageFailure)
        } else if sensorProblem != nil, dayStatus.isMeasurementDue {
            wanted = .fault(.sensorMissing)
        } else if dayStatus.isMeasurementDue {
            wanted = .due
        } else {
            wanted = .off
        }
        guard wanted != shownPattern else { return }
        shownPattern = wanted
        do {
            try parts.panel?.cues.show(wanted, atNanoseconds: now)
        } catch {
            log(.error, "cannot set the LED: \(error)")
        }
    }

    /// One line for `systemctl status`.
    func statusLine(at wall: Date) -> String {
        if let session { return "measuring: \(session.phase)" }
        if let calibration { return "calibrating: \(calibration.step)" }
        if let storeProblem { return "care store unreadable: \(storeProblem)" }
        var line = dayStatus.summary
        if let sensorProblem {
            line = "motion sensor missing on \(parts.sensor.location) (retrying: \(sensorProblem)); " + line
        }
        if let panelProblem { line = "no button, LED or buzzer (\(panelProblem)); " + line }
        if !trust.isTrusted {
            line += "; \(trust), reminders paused"
        } else if dayStatus.isMeasurementDue,
            let next = reminderInstants(on: wall).first(where: { $0 > wall && !policy.isQuiet($0) })
        {
            line += "; next reminder \(TimeOfDay.of(next, in: policy.calendar))"
        }
        return line
    }
}
