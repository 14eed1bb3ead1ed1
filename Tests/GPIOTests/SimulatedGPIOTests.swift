import GPIO
import LinuxSystem
import Synchronization
import Testing

private let ms: UInt64 = 1_000_000

@Suite("Simulated GPIO")
struct SimulatedGPIOTests {
    @Test func buttonDescriptorBecomesReadableWhenAScriptedEdgeIsDue() throws {
        let clock = ManualGPIOClock(startNanoseconds: 5_000 * ms)
        let chip = SimulatedGPIO(clock: clock, presses: [ScriptedPress(atSeconds: 1, holdSeconds: 0.2)])
        let button = try chip.requestInput(offset: 17, consumer: "test")
        let descriptor = try button.eventFileDescriptor()
        #expect(try !Poll.isReady(descriptor))
        #expect(try button.readEdges().isEmpty)
        // The wait a daemon makes: the manual clock jumps to the edge.
        var descriptors = [PollDescriptor(descriptor)]
        try clock.waitUntilReady(&descriptors)
        #expect(descriptors[0].isReady)
        #expect(clock.nowNanoseconds == 6_000 * ms)
        #expect(try button.readEdges() == [GPIOEdge(.falling, atNanoseconds: 6_000 * ms)])
        #expect(try !Poll.isReady(descriptor), "the next edge is not due yet")
        clock.advance(byNanoseconds: 200 * ms)
        #expect(try Poll.isReady(descriptor))
        #expect(try button.readEdges() == [GPIOEdge(.rising, atNanoseconds: 6_200 * ms)])
        // A press added later (as from standard input) arms the descriptor again.
        chip.schedule(ScriptedPress(atSeconds: 3))
        try clock.waitUntilReady(&descriptors)
        #expect(clock.nowNanoseconds == 8_000 * ms)
        #expect(try button.readEdges() == [GPIOEdge(.falling, atNanoseconds: 8_000 * ms)])
    }

    @Test func scriptedPressArrivesAsEdgesAtItsTimesOnTheClock() throws {
        let clock = ManualGPIOClock(startNanoseconds: 5_000 * ms)
        let chip = SimulatedGPIO(clock: clock, presses: [ScriptedPress(atSeconds: 1, holdSeconds: 0.2)])
        let button = try chip.requestInput(offset: 17, consumer: "test")
        #expect(try button.value())
        #expect(try button.waitForEdge(timeoutNanoseconds: 500 * ms) == nil)
        #expect(clock.nowNanoseconds == 5_500 * ms)
        #expect(
            try button.waitForEdge(timeoutNanoseconds: 10_000 * ms) == GPIOEdge(.falling, atNanoseconds: 6_000 * ms))
        #expect(clock.nowNanoseconds == 6_000 * ms)
        #expect(try !button.value())
        #expect(try button.waitForEdge(timeoutNanoseconds: 10_000 * ms) == GPIOEdge(.rising, atNanoseconds: 6_200 * ms))
        #expect(try button.value())
        #expect(try button.waitForEdge(timeoutNanoseconds: 1_000 * ms) == nil)
        #expect(clock.nowNanoseconds == 7_200 * ms)
    }

    @Test func bouncyLongPressThroughTheDebouncerIsOneLongPress() throws {
        let clock = ManualGPIOClock()
        let chip = SimulatedGPIO(clock: clock, presses: [ScriptedPress(atSeconds: 2, holdSeconds: 2, bounces: 4)])
        let button = try chip.requestInput(offset: 17, consumer: "test")
        var debouncer = ButtonDebouncer()
        var events: [ButtonEvent] = []
        while clock.nowNanoseconds < 10_000 * ms {
            let deadline = debouncer.nextDeadlineNanoseconds ?? 10_000 * ms
            let timeout = deadline - min(deadline, clock.nowNanoseconds)
            if let edge = try button.waitForEdge(timeoutNanoseconds: timeout) {
                events += debouncer.handle(edge)
            } else {
                events += debouncer.advance(toNanoseconds: clock.nowNanoseconds)
            }
        }
        #expect(
            events == [
                .pressed(atNanoseconds: 2_004 * ms),
                .longPressReached(atNanoseconds: 3_504 * ms),
                .released(ButtonPress(startNanoseconds: 2_004 * ms, endNanoseconds: 4_004 * ms, kind: .long)),
            ])
    }

    @Test func pressesScheduledWhileRunningPlayInOrder() throws {
        let clock = ManualGPIOClock()
        let chip = SimulatedGPIO(clock: clock, presses: [ScriptedPress(atSeconds: 5)])
        let button = try chip.requestInput(offset: 17, consumer: "test")
        chip.schedule(ScriptedPress(atSeconds: 1))
        #expect(try button.waitForEdge(timeoutNanoseconds: 60_000 * ms)?.timestampNanoseconds == 1_000 * ms)
    }

    @Test func lineCanBeRequestedOnceUntilReleased() throws {
        let chip = SimulatedGPIO(clock: ManualGPIOClock())
        let led = try chip.requestOutput(offset: 27, consumer: "test", initialValue: false)
        let id = GPIOLineID(chip: "/dev/gpiochip0", offset: 27, name: "GPIO27")
        #expect(throws: GPIOError.line(.requestInput, id, errno: .resourceBusy)) {
            try chip.requestInput(offset: 27, consumer: "other")
        }
        led.release()
        #expect(throws: GPIOError.line(.setValue, id, errno: .badFileDescriptor)) {
            try led.setValue(true)
        }
        _ = try chip.requestInput(offset: 27, consumer: "other")
        #expect(throws: GPIOError.offsetOutOfRange(chip: "/dev/gpiochip0", offset: 58, lineCount: 58)) {
            try chip.requestOutput(offset: 58, consumer: "test", initialValue: false)
        }
    }

    @Test func outputChangesAreRecordedAndReported() throws {
        let clock = ManualGPIOClock()
        let reported = Mutex<[String]>([])
        let chip = SimulatedGPIO(clock: clock) { change in reported.withLock { $0.append(change.description) } }
        let led = try chip.requestOutput(offset: 27, consumer: "test", initialValue: false)
        clock.advance(byNanoseconds: 1_250 * ms)
        try led.setValue(true)
        try led.setValue(true)
        clock.advance(byNanoseconds: 500 * ms)
        try led.setValue(false)
        let expected = ["+0.0s GPIO27 off", "+1.25s GPIO27 on", "+1.75s GPIO27 off"]
        #expect(chip.changes.map(\.description) == expected)
        #expect(reported.withLock { $0 } == expected)
    }

    @Test(arguments: [
        ("GPIO17", UInt32?.some(17)), ("GPIO0", 0), ("GPIO017", nil), ("GPIO58", nil), ("LED", nil), ("GPIO", nil),
    ])
    func namesLinesLikeAPiHeaderChip(name: String, offset: UInt32?) throws {
        #expect(try SimulatedGPIO(clock: ManualGPIOClock()).lineOffset(named: name) == offset)
    }
}

@Suite("Press scripts")
struct PressScriptTests {
    @Test func parsesTimesHoldsAndUnits() throws {
        #expect(
            try ScriptedPress.parseList("2s, 15s+2s,500ms,1.5s+100ms") == [
                ScriptedPress(atSeconds: 2), ScriptedPress(atSeconds: 15, holdSeconds: 2),
                ScriptedPress(atSeconds: 0.5), ScriptedPress(atSeconds: 1.5, holdSeconds: 0.1),
            ])
    }

    @Test(arguments: ["", "2", "2x", "-1s", "2s+", "2s+0s", "2s+1s+1s", "1e3s", "nans", "2s,,3s"])
    func rejectsMalformedItemsNamingThem(text: String) {
        #expect(throws: ScriptedPress.ParseError.self) {
            try ScriptedPress.parseList(text)
        }
    }

    /// Times beyond a UInt64 of nanoseconds trapped in the conversion; beyond a week is refused.
    @Test(arguments: [
        "99999999999999999999s", "18446744074s", "1s+99999999999999999999s", "604801s", "1s+604801s", "١s",
    ])
    func refusesTimesBeyondAWeekWithoutTrapping(text: String) {
        #expect(throws: ScriptedPress.ParseError.self) {
            try ScriptedPress.parseList(text)
        }
    }

    @Test func aWeekIsTheLatestPress() throws {
        #expect(
            try ScriptedPress.parseList("604800s+604800s") == [ScriptedPress(atSeconds: 604_800, holdSeconds: 604_800)])
    }

    @Test func errorNamesTheItem() {
        #expect(throws: ScriptedPress.ParseError(item: "2x")) {
            try ScriptedPress.parseList("1s,2x")
        }
        #expect(ScriptedPress.ParseError(item: "2x").description.hasPrefix("invalid press '2x': expected"))
    }
}
