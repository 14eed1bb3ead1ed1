import GPIO
import XCTest

/// The appliance's button, LED and buzzer through libgpiod and the kernel's GPIO character device,
/// on a gpio-sim chip: the button's pull-up request, debounced presses from real edge events
/// with the kernel's timestamps, output levels as the chip sees them, and a safe shutdown.
final class ControlPanelKernelTests: XCTestCase {
    private var simulator: GPIOSimulator!
    private let clock = SystemGPIOClock()
    /// Generous: under emulation the guest runs many times slower than the board.
    private let patienceNanoseconds: UInt64 = 10_000_000_000

    override func setUpWithError() throws {
        try KernelGuest.require()
        simulator = try HeaderChip.make()
    }

    override func tearDown() {
        simulator?.remove()
    }

    private func makePanel(
        timing: ButtonTiming = .standard, onRelease: ((GPIOLineID) -> Void)? = nil
    ) throws -> ControlPanel {
        let locator: GPIOLineLocator
        if let onRelease {
            locator = GPIOLineLocator { path throws(GPIOError) in
                try ReleaseWatchingChip(path: path, onRelease: onRelease)
            }
        } else {
            locator = GPIOLineLocator()
        }
        return try ControlPanel(
            configuration: GPIOConfiguration(buttonTiming: timing), locator: locator, clock: clock,
            consumer: "romdev-test")
    }

    /// Waits for the panel's next events, or fails after `patienceNanoseconds`.
    private func nextEvents(_ panel: ControlPanel, file: StaticString = #filePath, line: UInt = #line) throws
        -> [ButtonEvent]
    {
        let deadline = clock.nowNanoseconds + patienceNanoseconds
        while clock.nowNanoseconds < deadline {
            let events = try panel.waitForButton(untilNanoseconds: deadline)
            if !events.isEmpty { return events }
        }
        XCTFail("no button event", file: file, line: line)
        return []
    }

    /// Sets the button's pull and returns the clock readings just before and after.
    private func drive(_ pull: GPIOSimulator.Pull) throws -> ClosedRange<UInt64> {
        let before = clock.nowNanoseconds
        try simulator.setPull(pull, offset: HeaderChip.button)
        return before...clock.nowNanoseconds
    }

    func testButtonIsRequestedWithThePullUp() throws {
        XCTAssertEqual(try simulator.pull(offset: HeaderChip.button), .down, "gpio-sim's default")
        let panel = try makePanel()
        defer { try? panel.shutDown() }
        XCTAssertEqual(try simulator.pull(offset: HeaderChip.button), .up)
        XCTAssertTrue(try simulator.isHigh(offset: HeaderChip.button))
        XCTAssertFalse(panel.isButtonPressed)
    }

    func testPressAndReleaseAreDebouncedOnTheKernelsEdgeTimestamps() throws {
        // A long-press threshold far above the time the test holds the button down.
        let panel = try makePanel(timing: try ButtonTiming(debounceMilliseconds: 30, longPressMilliseconds: 10_000))
        defer { try? panel.shutDown() }

        let pressWindow = try drive(.down)
        let pressed = try nextEvents(panel)
        guard pressed.count == 1, case .pressed(let pressedAt) = pressed[0] else {
            return XCTFail("expected one press, got \(pressed)")
        }
        XCTAssertTrue(pressWindow.contains(pressedAt), "edge at \(pressedAt), pull written in \(pressWindow)")
        XCTAssertTrue(panel.isButtonPressed)

        let releaseWindow = try drive(.up)
        let released = try nextEvents(panel)
        guard released.count == 1, case .released(let press) = released[0] else {
            return XCTFail("expected one release, got \(released)")
        }
        XCTAssertEqual(press.startNanoseconds, pressedAt)
        XCTAssertTrue(
            releaseWindow.contains(press.endNanoseconds),
            "edge at \(press.endNanoseconds), pull written in \(releaseWindow)")
        XCTAssertEqual(press.kind, .short)
        XCTAssertFalse(panel.isButtonPressed)
    }

    func testHeldButtonReachesTheLongPressBeforeItIsReleased() throws {
        let timing = try ButtonTiming(debounceMilliseconds: 30, longPressMilliseconds: 500)
        let panel = try makePanel(timing: timing)
        defer { try? panel.shutDown() }

        _ = try drive(.down)
        guard case .pressed(let pressedAt)? = try nextEvents(panel).first else { return XCTFail("no press") }
        let reached = try nextEvents(panel)
        XCTAssertEqual(reached, [.longPressReached(atNanoseconds: pressedAt + timing.longPressNanoseconds)])

        _ = try drive(.up)
        guard case .released(let press)? = try nextEvents(panel).first else { return XCTFail("no release") }
        XCTAssertEqual(press.startNanoseconds, pressedAt)
        XCTAssertEqual(press.kind, .long)
    }

    func testLEDAndBuzzerLevelsAreWhatTheChipSees() throws {
        let panel = try makePanel()
        defer { try? panel.shutDown() }
        XCTAssertFalse(try simulator.isHigh(offset: HeaderChip.led))
        XCTAssertFalse(try simulator.isHigh(offset: HeaderChip.buzzer))

        let start = clock.nowNanoseconds
        try panel.cues.show(.on, atNanoseconds: start)
        XCTAssertTrue(try simulator.isHigh(offset: HeaderChip.led))
        XCTAssertFalse(try simulator.isHigh(offset: HeaderChip.buzzer))

        // "Hold still" is one 120 ms beep: sounding at its start, silent once it is over.
        try panel.cues.play(.holdStill, atNanoseconds: start)
        XCTAssertTrue(try simulator.isHigh(offset: HeaderChip.buzzer))
        try panel.cues.update(atNanoseconds: start + 200_000_000)
        XCTAssertFalse(try simulator.isHigh(offset: HeaderChip.buzzer))
        XCTAssertTrue(try simulator.isHigh(offset: HeaderChip.led))

        // The "due" pattern: 100 ms flash, then dark until 2 s.
        try panel.cues.show(.due, atNanoseconds: start)
        XCTAssertTrue(try simulator.isHigh(offset: HeaderChip.led))
        try panel.cues.update(atNanoseconds: start + 150_000_000)
        XCTAssertFalse(try simulator.isHigh(offset: HeaderChip.led))
        try panel.cues.update(atNanoseconds: start + 2_050_000_000)
        XCTAssertTrue(try simulator.isHigh(offset: HeaderChip.led))
    }

    func testShutDownDrivesOutputsLowThenReleasesEveryLine() throws {
        var levelsAtRelease: [UInt32: Bool] = [:]
        let simulator = self.simulator!
        let panel = try makePanel { line in
            levelsAtRelease[line.offset] = try? simulator.isHigh(offset: Int(line.offset))
        }
        let now = clock.nowNanoseconds
        try panel.cues.show(.on, atNanoseconds: now)
        try panel.cues.play(.error, atNanoseconds: now)
        XCTAssertTrue(try simulator.isHigh(offset: HeaderChip.led))
        XCTAssertTrue(try simulator.isHigh(offset: HeaderChip.buzzer))

        try panel.shutDown()

        XCTAssertEqual(levelsAtRelease, [UInt32(HeaderChip.led): false, UInt32(HeaderChip.buzzer): false])
        XCTAssertFalse(try simulator.isHigh(offset: HeaderChip.led))
        XCTAssertFalse(try simulator.isHigh(offset: HeaderChip.buzzer))
        // Every line is free again: another owner can take each of them.
        let chip = try LibgpiodChip(path: simulator.chipPath)
        for offset in [HeaderChip.button, HeaderChip.led, HeaderChip.buzzer] {
            try chip.requestOutput(offset: UInt32(offset), consumer: "romdev-test", initialValue: false).release()
        }
    }
}
