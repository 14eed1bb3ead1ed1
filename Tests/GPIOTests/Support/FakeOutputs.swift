import GPIO
import LinuxSystem

/// An output line whose writes can be made to fail, recording what it was set to.
final class FakeOutputLine: GPIOOutputLine {
    let id = GPIOLineID(chip: "/dev/gpiochip0", offset: 27, name: "GPIO27")
    var values: [Bool] = []
    var failWith: Errno?

    func setValue(_ high: Bool) throws(GPIOError) {
        if let failWith {
            throw .line(.setValue, id, errno: failWith)
        }
        values.append(high)
    }

    func release() {}
}

/// A buzzer recording tones, optionally failing.
final class FakeBuzzer: Buzzer {
    var tones: [BuzzerTone?] = []
    var failWith: Errno?

    func play(_ tone: BuzzerTone?) throws(GPIOError) {
        if let failWith {
            throw .pwm(path: "/sys/class/pwm/pwmchip0/pwm0/enable", errno: failWith)
        }
        tones.append(tone)
    }
}
