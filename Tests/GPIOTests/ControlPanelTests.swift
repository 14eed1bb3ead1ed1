import GPIO
import LinuxSystem
import Testing

private let ms: UInt64 = 1_000_000

/// A control panel on a simulated chip that the locator finds at /dev/gpiochip0.
private struct Bench {
    let clock = ManualGPIOClock()
    let chip: SimulatedGPIO
    let locator: GPIOLineLocator

    init(presses: [ScriptedPress] = []) {
        let chip = SimulatedGPIO(clock: clock, presses: presses)
        self.chip = chip
        locator = GPIOLineLocator(directory: "/nonexistent") { _ throws(GPIOError) in chip }
    }

    func panel(_ configuration: GPIOConfiguration = GPIOConfiguration(chip: .path("/dev/gpiochip0"))) throws
        -> ControlPanel
    {
        try ControlPanel(configuration: configuration, locator: locator, clock: clock)
    }
}

@Suite("Control panel")
struct ControlPanelTests {
    @Test func defaultsRequestTheWiredLinesWithOutputsOff() throws {
        let bench = Bench()
        _ = try bench.panel()
        #expect(bench.chip.changes.map(\.description) == ["+0.0s GPIO27 off", "+0.0s GPIO22 off"])
        #expect(
            throws: GPIOError.line(
                .requestInput, GPIOLineID(chip: "/dev/gpiochip0", offset: 17, name: "GPIO17"), errno: .resourceBusy)
        ) {
            try bench.chip.requestInput(offset: 17, consumer: "other")
        }
    }

    @Test func pressIsReportedWhileThePatternKeepsPlaying() throws {
        let bench = Bench(presses: [ScriptedPress(atSeconds: 2.05, holdSeconds: 0.3, bounces: 2)])
        let panel = try bench.panel()
        try panel.cues.show(.due, atNanoseconds: bench.clock.nowNanoseconds)
        #expect(try panel.waitForButton(untilNanoseconds: 10_000 * ms) == [.pressed(atNanoseconds: 2_052 * ms)])
        #expect(panel.isButtonPressed)
        #expect(bench.clock.nowNanoseconds == 2_082 * ms)
        let released = try panel.waitForButton(untilNanoseconds: 10_000 * ms)
        #expect(
            released == [.released(ButtonPress(startNanoseconds: 2_052 * ms, endNanoseconds: 2_352 * ms, kind: .short))]
        )
        let led = bench.chip.changes.filter { $0.line.offset == 27 }.map(\.description)
        #expect(
            led == ["+0.0s GPIO27 off", "+0.0s GPIO27 on", "+0.1s GPIO27 off", "+2.0s GPIO27 on", "+2.1s GPIO27 off"])
    }

    @Test func returnsNothingAtTheDeadlineWithTheCuesUpToDate() throws {
        let bench = Bench()
        let panel = try bench.panel()
        try panel.cues.play(.reminder, atNanoseconds: 0)
        #expect(try panel.waitForButton(untilNanoseconds: 5_000 * ms).isEmpty)
        #expect(bench.clock.nowNanoseconds == 5_000 * ms)
        #expect(bench.chip.changes.filter { $0.line.offset == 22 }.count == 7)
        #expect(panel.cues.currentChime == nil)
    }

    @Test func failedRequestReleasesTheLinesAlreadyTaken() throws {
        let bench = Bench()
        let clash = GPIOConfiguration(chip: .path("/dev/gpiochip0"), button: .name("GPIO27"))
        #expect(
            throws: GPIOError.line(
                .requestInput, GPIOLineID(chip: "/dev/gpiochip0", offset: 27, name: "GPIO27"), errno: .resourceBusy)
        ) {
            try bench.panel(clash)
        }
        _ = try bench.panel()
    }

    @Test func shutDownTurnsOffAndReleasesEverything() throws {
        let bench = Bench()
        let panel = try bench.panel()
        try panel.cues.show(.on, atNanoseconds: 0)
        try panel.cues.play(.error, atNanoseconds: 0)
        try panel.shutDown()
        let last = Dictionary(bench.chip.changes.map { ($0.line.offset, $0.value) }, uniquingKeysWith: { $1 })
        #expect(last == [27: false, 22: false])
        _ = try bench.panel()
    }

    @Test func pwmBuzzerComesFromTheOpener() throws {
        let bench = Bench()
        let buzzer = FakeBuzzer()
        let configuration = GPIOConfiguration(
            chip: .path("/dev/gpiochip0"), buzzer: .pwm(chipDirectory: "/sys/class/pwm/pwmchip0", channel: 0))
        var opened: [String] = []
        let panel = try ControlPanel(configuration: configuration, locator: bench.locator, clock: bench.clock) {
            chip, channel throws(GPIOError) in
            opened.append("\(chip)/pwm\(channel)")
            return buzzer
        }
        try panel.cues.play(.go, atNanoseconds: 0)
        #expect(opened == ["/sys/class/pwm/pwmchip0/pwm0"])
        #expect(buzzer.tones.last == .some(BuzzerTone(frequencyHz: 2_000)))
        try panel.shutDown()
        #expect(buzzer.tones.last == .some(nil))
    }
}
