import GPIO
import Testing

import struct Sensor.SplitMix64

private let ms: UInt64 = 1_000_000

/// Feeds edges the way the daemon's loop does: wait for the next edge or the debouncer's
/// deadline, whichever comes first; then advance to `end`.
private func run(_ debouncer: inout ButtonDebouncer, _ edges: [GPIOEdge], until end: UInt64) -> [ButtonEvent] {
    var events: [ButtonEvent] = []
    for edge in edges {
        while let deadline = debouncer.nextDeadlineNanoseconds, deadline < edge.timestampNanoseconds {
            events += debouncer.advance(toNanoseconds: deadline)
        }
        events += debouncer.handle(edge)
    }
    while let deadline = debouncer.nextDeadlineNanoseconds, deadline <= end {
        events += debouncer.advance(toNanoseconds: deadline)
    }
    return events + debouncer.advance(toNanoseconds: end)
}

private func presses(_ events: [ButtonEvent]) -> [ButtonPress] {
    events.compactMap { if case .released(let press) = $0 { press } else { nil } }
}

@Suite("Button debouncer")
struct ButtonDebouncerTests {
    @Test func cleanShortPressIsReportedWithEdgeTimestamps() throws {
        var debouncer = ButtonDebouncer()
        let events = run(
            &debouncer, [GPIOEdge(.falling, atNanoseconds: 1_000 * ms), GPIOEdge(.rising, atNanoseconds: 1_200 * ms)],
            until: 5_000 * ms)
        #expect(
            events == [
                .pressed(atNanoseconds: 1_000 * ms),
                .released(ButtonPress(startNanoseconds: 1_000 * ms, endNanoseconds: 1_200 * ms, kind: .short)),
            ])
        #expect(!debouncer.isPressed)
        #expect(debouncer.nextDeadlineNanoseconds == nil)
    }

    @Test(arguments: [20, 30, 50])
    func glitchShorterThanDebounceIsIgnored(debounceMilliseconds: Int) throws {
        var debouncer = ButtonDebouncer(timing: try ButtonTiming(debounceMilliseconds: debounceMilliseconds))
        let width = UInt64(debounceMilliseconds) * ms - 1
        let events = run(
            &debouncer,
            [GPIOEdge(.falling, atNanoseconds: 100 * ms), GPIOEdge(.rising, atNanoseconds: 100 * ms + width)],
            until: 1_000 * ms)
        #expect(events.isEmpty)
    }

    @Test(arguments: [20, 30, 50])
    func levelStableForExactlyTheDebounceIntervalCounts(debounceMilliseconds: Int) throws {
        var debouncer = ButtonDebouncer(timing: try ButtonTiming(debounceMilliseconds: debounceMilliseconds))
        let width = UInt64(debounceMilliseconds) * ms
        let events = run(
            &debouncer,
            [GPIOEdge(.falling, atNanoseconds: 100 * ms), GPIOEdge(.rising, atNanoseconds: 100 * ms + width)],
            until: 1_000 * ms)
        #expect(events.first == .pressed(atNanoseconds: 100 * ms))
        #expect(presses(events).count == 1)
    }

    @Test func bouncesAtBothEndsGiveOnePressDatedFromTheSettlingEdges() {
        var debouncer = ButtonDebouncer()
        let edges = [
            GPIOEdge(.falling, atNanoseconds: 100 * ms), GPIOEdge(.rising, atNanoseconds: 101 * ms),
            GPIOEdge(.falling, atNanoseconds: 103 * ms), GPIOEdge(.rising, atNanoseconds: 104 * ms),
            GPIOEdge(.falling, atNanoseconds: 106 * ms),
            GPIOEdge(.rising, atNanoseconds: 400 * ms), GPIOEdge(.falling, atNanoseconds: 402 * ms),
            GPIOEdge(.rising, atNanoseconds: 405 * ms),
        ]
        let events = run(&debouncer, edges, until: 2_000 * ms)
        #expect(
            events == [
                .pressed(atNanoseconds: 106 * ms),
                .released(ButtonPress(startNanoseconds: 106 * ms, endNanoseconds: 405 * ms, kind: .short)),
            ])
    }

    @Test func longPressIsAnnouncedWhileHeldAndClassifiedOnRelease() {
        var debouncer = ButtonDebouncer()
        var events = run(&debouncer, [GPIOEdge(.falling, atNanoseconds: 0)], until: 1_499 * ms)
        #expect(events == [.pressed(atNanoseconds: 0)])
        #expect(debouncer.nextDeadlineNanoseconds == 1_500 * ms)
        events = debouncer.advance(toNanoseconds: 1_500 * ms)
        #expect(events == [.longPressReached(atNanoseconds: 1_500 * ms)])
        events = run(&debouncer, [GPIOEdge(.rising, atNanoseconds: 2_000 * ms)], until: 3_000 * ms)
        #expect(events == [.released(ButtonPress(startNanoseconds: 0, endNanoseconds: 2_000 * ms, kind: .long))])
    }

    @Test func pressJustUnderTheThresholdIsShortAndNeverAnnouncedLong() {
        var debouncer = ButtonDebouncer()
        let events = run(
            &debouncer, [GPIOEdge(.falling, atNanoseconds: 0), GPIOEdge(.rising, atNanoseconds: 1_500 * ms - 1)],
            until: 5_000 * ms)
        #expect(
            events == [
                .pressed(atNanoseconds: 0),
                .released(ButtonPress(startNanoseconds: 0, endNanoseconds: 1_500 * ms - 1, kind: .short)),
            ])
    }

    @Test func releaseBouncePendingAtTheThresholdDoesNotAnnounceLongPress() {
        // Released 10 ms before the threshold; the release becomes certain 20 ms after it.
        var debouncer = ButtonDebouncer()
        let events = run(
            &debouncer, [GPIOEdge(.falling, atNanoseconds: 0), GPIOEdge(.rising, atNanoseconds: 1_490 * ms)],
            until: 3_000 * ms)
        #expect(!events.contains(.longPressReached(atNanoseconds: 1_500 * ms)))
        #expect(presses(events).map(\.kind) == [.short])
    }

    @Test func activeHighPolarityTreatsRisingEdgesAsPresses() {
        var debouncer = ButtonDebouncer(polarity: .activeHigh)
        let events = run(
            &debouncer, [GPIOEdge(.rising, atNanoseconds: 0), GPIOEdge(.falling, atNanoseconds: 100 * ms)],
            until: 1_000 * ms)
        #expect(presses(events) == [ButtonPress(startNanoseconds: 0, endNanoseconds: 100 * ms, kind: .short)])
    }

    @Test func repeatedEdgeOfTheStableLevelIsIgnored() {
        var debouncer = ButtonDebouncer()
        let events = run(
            &debouncer, [GPIOEdge(.rising, atNanoseconds: 0), GPIOEdge(.rising, atNanoseconds: 5 * ms)],
            until: 1_000 * ms)
        #expect(events.isEmpty)
    }

    /// Random press scripts with contact bounce shorter than the debounce interval: every press is
    /// reported once, with the settling edges' timestamps and the right kind, whether or not the
    /// loop wakes at the deadlines.
    @Test(arguments: 0..<50 as Range<UInt64>)
    func randomBouncyScriptsGiveExactlyTheScriptedPresses(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let debounceMs = Int.random(in: 20...50, using: &random)
        let timing = try ButtonTiming(debounceMilliseconds: debounceMs)
        var edges: [GPIOEdge] = []
        var expected: [ButtonPress] = []
        var time = UInt64.random(in: 0...1_000, using: &random) * ms
        for _ in 0..<Int.random(in: 1...12, using: &random) {
            let bounces = Int.random(in: 0...5, using: &random)
            let hold = UInt64.random(in: UInt64(debounceMs + 10)...3_000, using: &random) * ms
            let press = ScriptedPress(atSeconds: Double(time) / 1e9, holdSeconds: Double(hold) / 1e9, bounces: bounces)
            let pressEdges = press.edges
            edges += pressEdges
            let settleDown = pressEdges[2 * bounces].timestampNanoseconds
            let settleUp = pressEdges.last!.timestampNanoseconds
            let duration = settleUp - settleDown
            expected.append(
                ButtonPress(
                    startNanoseconds: settleDown, endNanoseconds: settleUp,
                    kind: duration >= 1_500 * ms ? .long : .short))
            time = settleUp + UInt64.random(in: UInt64(debounceMs + 10)...2_000, using: &random) * ms
        }
        var atDeadlines = ButtonDebouncer(timing: timing)
        let events = run(&atDeadlines, edges, until: time + 5_000 * ms)
        #expect(presses(events) == expected, "seed \(seed)")
        #expect(
            events.filter { if case .longPressReached = $0 { true } else { false } }.count
                == expected.filter { $0.kind == .long }.count)

        var edgesOnly = ButtonDebouncer(timing: timing)
        var lateEvents = edges.flatMap { edgesOnly.handle($0) }
        lateEvents += edgesOnly.advance(toNanoseconds: time + 5_000 * ms)
        #expect(presses(lateEvents) == expected, "seed \(seed), edges only")
    }
}

@Suite("Button timing")
struct ButtonTimingTests {
    @Test func defaultsAreThirtyMillisecondsAndOneAndAHalfSeconds() throws {
        #expect(try ButtonTiming() == .standard)
        #expect(ButtonTiming.standard.debounceNanoseconds == 30 * ms)
        #expect(ButtonTiming.standard.longPressNanoseconds == 1_500 * ms)
    }

    @Test(arguments: [0, 19, 51, 1_000])
    func debounceOutsideTwentyToFiftyMillisecondsIsRejected(milliseconds: Int) {
        #expect(throws: GPIOError.buttonTiming(name: "debounce", milliseconds: milliseconds, allowed: 20...50)) {
            try ButtonTiming(debounceMilliseconds: milliseconds)
        }
    }

    @Test func errorNamesTheValueAndTheRange() {
        let error = GPIOError.buttonTiming(name: "debounce", milliseconds: 5, allowed: 20...50)
        #expect(error.description == "debounce of 5 ms is outside 20–50 ms")
    }
}
