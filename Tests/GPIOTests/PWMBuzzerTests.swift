import Foundation
import GPIO
import LinuxSystem
import TestSupport
import Testing

/// A fake `/sys/class/pwm/pwmchip0` with channel 0 exported (or not).
private func pwmChip(exported: Bool) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    try directory.write("", to: "export")
    if exported {
        try FileManager.default.createDirectory(atPath: directory.path("pwm0"), withIntermediateDirectories: false)
        for file in ["enable", "period", "duty_cycle"] {
            try directory.write("", to: "pwm0/\(file)")
        }
    }
    return directory
}

@Suite("PWM buzzer")
struct PWMBuzzerTests {
    @Test func toneSetsPeriodAndHalfDutyThenEnables() throws {
        let chip = try pwmChip(exported: true)
        let buzzer = try PWMBuzzer(chipDirectory: chip.path, channel: 0)
        #expect(try chip.read("pwm0/enable") == "0")
        try buzzer.play(BuzzerTone(frequencyHz: 2_000))
        #expect(try chip.read("pwm0/period") == "500000")
        #expect(try chip.read("pwm0/duty_cycle") == "250000")
        #expect(try chip.read("pwm0/enable") == "1")
        try buzzer.play(BuzzerTone(frequencyHz: 2_500))
        #expect(try chip.read("pwm0/period") == "400000")
        #expect(try chip.read("pwm0/duty_cycle") == "200000")
        try buzzer.play(nil)
        #expect(try chip.read("pwm0/enable") == "0")
        #expect(try chip.read("export") == "", "an exported channel is not exported again")
    }

    @Test func unexportedChannelIsExportedAndMustAppear() throws {
        let chip = try pwmChip(exported: false)
        #expect(throws: GPIOError.pwmChannelMissing(path: chip.path("pwm0"))) {
            try PWMBuzzer(chipDirectory: chip.path, channel: 0)
        }
        #expect(try chip.read("export") == "0")
    }

    @Test func missingChipGivesAnErrorNamingTheFile() {
        let path = "/nonexistent-romdev-pwm/pwmchip0"
        #expect(throws: GPIOError.pwm(path: path + "/export", errno: .noSuchFileOrDirectory)) {
            try PWMBuzzer(chipDirectory: path, channel: 0)
        }
        #expect(
            GPIOError.pwm(path: path + "/export", errno: .permissionDenied).description
                == "cannot write PWM file \(path)/export: Permission denied (EACCES)")
    }
}
