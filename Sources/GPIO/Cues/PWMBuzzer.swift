import LinuxSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A passive piezo driven with a square wave from a sysfs PWM channel
/// (`/sys/class/pwm/pwmchipN/pwmM`, Linux `Documentation/driver-api/pwm.rst`).
///
/// On a Raspberry Pi, `dtoverlay=pwm` puts PWM0 on GPIO18. Sysfs PWM keeps running after the
/// process exits, so the unit's `ExecStopPost=` also writes 0 to `enable`.
public final class PWMBuzzer: Buzzer {
    /// The channel directory, e.g. `/sys/class/pwm/pwmchip0/pwm0`.
    public let channelDirectory: String
    private var current: BuzzerTone?
    private var enabled = false

    /// Exports the channel if needed and silences it.
    ///
    /// - Parameters:
    ///   - chipDirectory: The PWM chip's sysfs directory (a temporary directory in tests).
    ///   - channel: The channel number on that chip.
    /// - Throws: `GPIOError.pwm` naming the file, `GPIOError.pwmChannelMissing`.
    public init(chipDirectory: String = "/sys/class/pwm/pwmchip0", channel: Int = 0) throws(GPIOError) {
        channelDirectory = "\(chipDirectory)/pwm\(channel)"
        if !Self.exists(channelDirectory) {
            do {
                try Self.writeAttribute("\(channel)", to: "\(chipDirectory)/export")
            } catch .pwm(_, .resourceBusy) {
                // Already exported (by an earlier run): the directory is there or on its way.
            }
            guard Self.exists(channelDirectory) else {
                throw .pwmChannelMissing(path: channelDirectory)
            }
        }
        try writeAttribute("0", to: "enable")
    }

    /// Sets period and duty cycle (50 %) for the tone and enables the output, or disables it.
    ///
    /// The duty cycle is zeroed before the period changes, because the kernel refuses a duty
    /// cycle longer than the period.
    public func play(_ tone: BuzzerTone?) throws(GPIOError) {
        guard let tone, tone.frequencyHz > 0 else {
            try writeAttribute("0", to: "enable")
            enabled = false
            return
        }
        if tone != current {
            let period = 1_000_000_000 / tone.frequencyHz
            current = nil
            try writeAttribute("0", to: "duty_cycle")
            try writeAttribute("\(period)", to: "period")
            try writeAttribute("\(period / 2)", to: "duty_cycle")
            current = tone
        }
        if !enabled {
            try writeAttribute("1", to: "enable")
            enabled = true
        }
    }

    private func writeAttribute(_ text: String, to file: String) throws(GPIOError) {
        try Self.writeAttribute(text, to: "\(channelDirectory)/\(file)")
    }

    private static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The corresponding calls are `open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)`, `write`, `close`,
    /// as `echo value > file` does; a sysfs attribute takes its value in one write.
    private static func writeAttribute(_ text: String, to path: String) throws(GPIOError) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else {
            throw .pwm(path: path, errno: .current)
        }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written: Int
        do {
            written = try retryingOnInterrupt { () throws(Errno) -> Int in
                let result = write(fd, bytes, bytes.count)
                guard result >= 0 else { throw Errno.current }
                return result
            }
        } catch {
            throw .pwm(path: path, errno: error)
        }
        guard written == bytes.count else {
            throw .pwm(path: path, errno: .ioError)
        }
    }
}
