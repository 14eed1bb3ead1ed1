import GPIO
import LinuxSystem
import Testing

private let ms: UInt64 = 1_000_000

/// A cue controller on simulated LED (GPIO27) and active buzzer (GPIO22) lines.
private struct Rig {
    let clock = ManualGPIOClock()
    let chip: SimulatedGPIO
    let cues: CueController

    init() throws {
        chip = SimulatedGPIO(clock: clock)
        let led = try chip.requestOutput(offset: 27, consumer: "test", initialValue: false)
        let buzzer = try chip.requestOutput(offset: 22, consumer: "test", initialValue: false)
        cues = CueController(led: led, buzzer: LineBuzzer(line: buzzer))
    }

    /// Runs the controller the way the daemon's loop does until `end`.
    func run(until end: UInt64) throws {
        while let deadline = cues.nextDeadline(afterNanoseconds: clock.nowNanoseconds), deadline <= end {
            clock.sleep(untilNanoseconds: deadline)
            try cues.update(atNanoseconds: deadline)
        }
        clock.sleep(untilNanoseconds: end)
    }

    func changes(_ line: UInt32) -> [String] {
        chip.changes.filter { $0.line.offset == line }.dropFirst().map(\.description)
    }
}

@Suite("Cue controller")
struct CueControllerTests {
    @Test func dueAndMeasuringPatternsReachTheLEDAtTheirTimes() throws {
        let rig = try Rig()
        try rig.cues.show(.due, atNanoseconds: 0)
        try rig.run(until: 4_500 * ms)
        try rig.cues.show(.measuring, atNanoseconds: 4_500 * ms)
        try rig.run(until: 5_600 * ms)
        #expect(
            rig.changes(27) == [
                "+0.0s GPIO27 on", "+0.1s GPIO27 off", "+2.0s GPIO27 on", "+2.1s GPIO27 off",
                "+4.0s GPIO27 on", "+4.1s GPIO27 off", "+4.5s GPIO27 on", "+5.0s GPIO27 off", "+5.5s GPIO27 on",
            ])
    }

    @Test func chimePlaysOnceThenClearsAndNothingIsDueAfterIt() throws {
        let rig = try Rig()
        try rig.cues.play(.reminder, atNanoseconds: 0)
        #expect(rig.cues.currentChime == .reminder)
        try rig.run(until: 10_000 * ms)
        #expect(
            rig.changes(22) == [
                "+0.0s GPIO22 on", "+0.15s GPIO22 off", "+0.25s GPIO22 on", "+0.4s GPIO22 off", "+0.5s GPIO22 on",
                "+0.9s GPIO22 off",
            ])
        #expect(rig.cues.currentChime == nil)
        #expect(rig.cues.nextDeadline(afterNanoseconds: rig.clock.nowNanoseconds) == nil)
    }

    @Test func newChimeCutsOffTheOneStillPlaying() throws {
        let rig = try Rig()
        try rig.cues.play(.error, atNanoseconds: 0)
        try rig.run(until: 100 * ms)
        try rig.cues.play(.holdStill, atNanoseconds: 100 * ms)
        try rig.run(until: 3_000 * ms)
        #expect(rig.changes(22) == ["+0.0s GPIO22 on", "+0.22s GPIO22 off"])
    }

    @Test func stopTurnsEverythingOffMidPatternAndMidChime() throws {
        let rig = try Rig()
        try rig.cues.show(.on, atNanoseconds: 0)
        try rig.cues.play(.done, atNanoseconds: 0)
        try rig.run(until: 60 * ms)
        try rig.cues.stop()
        #expect(rig.changes(27).last == "+0.06s GPIO27 off")
        #expect(rig.changes(22).last == "+0.06s GPIO22 off")
        #expect(rig.cues.currentPattern == .off)
        #expect(rig.cues.currentChime == nil)
        #expect(rig.cues.nextDeadline(afterNanoseconds: 60 * ms) == nil)
    }

    @Test func stopStillSilencesTheBuzzerWhenTheLEDFails() throws {
        let led = FakeOutputLine()
        let buzzer = FakeBuzzer()
        let cues = CueController(led: led, buzzer: buzzer)
        try cues.play(.reminder, atNanoseconds: 0)
        led.failWith = .ioError
        #expect(throws: GPIOError.line(.setValue, led.id, errno: .ioError)) {
            try cues.stop()
        }
        #expect(buzzer.tones.last == .some(nil))
    }

    @Test func stopWritesOffEvenIfOffWasWrittenBefore() throws {
        let led = FakeOutputLine()
        let buzzer = FakeBuzzer()
        let cues = CueController(led: led, buzzer: buzzer)
        try cues.update(atNanoseconds: 0)
        try cues.stop()
        #expect(led.values == [false, false])
        #expect(buzzer.tones.count == 2)
    }

    @Test func writesOnlyChangesAndRetriesAFailedWrite() throws {
        let led = FakeOutputLine()
        let buzzer = FakeBuzzer()
        let cues = CueController(led: led, buzzer: buzzer)
        try cues.show(.on, atNanoseconds: 0)
        try cues.update(atNanoseconds: 10 * ms)
        try cues.update(atNanoseconds: 20 * ms)
        #expect(led.values == [true])
        #expect(buzzer.tones == [nil])
        led.failWith = .ioError
        #expect(throws: GPIOError.self) {
            try cues.show(.off, atNanoseconds: 30 * ms)
        }
        led.failWith = nil
        try cues.update(atNanoseconds: 40 * ms)
        try cues.update(atNanoseconds: 50 * ms)
        #expect(led.values == [true, false])
    }
}
