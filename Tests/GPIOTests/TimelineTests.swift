import GPIO
import Testing

private let ms: UInt64 = 1_000_000

/// Walks a timeline's changes from 0 to `end`, checking that the level is constant between
/// changes and differs across each; returns the change times.
private func changes<Level>(_ timeline: Timeline<Level>, until end: UInt64) -> [UInt64] {
    var times: [UInt64] = []
    var time: UInt64 = 0
    while let next = timeline.nextChange(afterNanoseconds: time), next <= end {
        #expect(next > time)
        #expect(timeline.level(atNanoseconds: next - 1) == timeline.level(atNanoseconds: time))
        #expect(timeline.level(atNanoseconds: next) != timeline.level(atNanoseconds: next - 1))
        times.append(next)
        time = next
    }
    return times
}

private let allPatterns: [LEDPattern] = [.off, .on, .due, .measuring, .success] + FaultCode.allCases.map { .fault($0) }

@Suite("Timelines, LED patterns and chimes")
struct TimelineTests {
    @Test func stepsCoverHalfOpenIntervalsAndRepeat() {
        let timeline = Timeline(
            [.init(true, milliseconds: 100), .init(false, milliseconds: 400)], repeats: true, rest: false)
        #expect(timeline.level(atNanoseconds: 0))
        #expect(timeline.level(atNanoseconds: 100 * ms - 1))
        #expect(!timeline.level(atNanoseconds: 100 * ms))
        #expect(timeline.level(atNanoseconds: 500 * ms))
        #expect(timeline.nextChange(afterNanoseconds: 0) == 100 * ms)
        #expect(timeline.nextChange(afterNanoseconds: 100 * ms) == 500 * ms)
        #expect(!timeline.isFinished(atNanoseconds: .max))
    }

    @Test func oneShotEndsInItsRestLevel() {
        let timeline = Timeline([.init(1, milliseconds: 10), .init(1, milliseconds: 10)], repeats: false, rest: 0)
        #expect(timeline.nextChange(afterNanoseconds: 0) == 20 * ms)
        #expect(timeline.level(atNanoseconds: 20 * ms) == 0)
        #expect(timeline.isFinished(atNanoseconds: 20 * ms))
        #expect(timeline.nextChange(afterNanoseconds: 20 * ms) == nil)
        #expect(Timeline<Int>.constant(3).nextChange(afterNanoseconds: 0) == nil)
    }

    @Test func sameLevelStepsAcrossTheWrapAreOneRun() {
        let timeline = Timeline(
            [.init(false, milliseconds: 10), .init(true, milliseconds: 10), .init(false, milliseconds: 30)],
            repeats: true, rest: false)
        #expect(timeline.nextChange(afterNanoseconds: 25 * ms) == 60 * ms)
    }

    @Test(arguments: allPatterns)
    func everyPatternChangesOnlyAtItsAnnouncedTimes(pattern: LEDPattern) {
        _ = changes(pattern.timeline, until: 20_000 * ms)
    }

    @Test(arguments: Chime.allCases)
    func everyChimeIsShortAudibleAndEndsSilent(chime: Chime) {
        let timeline = chime.timeline
        #expect(!timeline.repeats)
        #expect(timeline.cycleNanoseconds <= 2_000 * ms)
        #expect(timeline.level(atNanoseconds: 0) != nil, "a chime starts sounding at once")
        #expect(timeline.level(atNanoseconds: timeline.cycleNanoseconds) == nil)
        for step in timeline.steps {
            if let tone = step.level { #expect((1_000...4_000).contains(tone.frequencyHz)) }
        }
        _ = changes(timeline, until: 5_000 * ms)
    }

    @Test func dueFlashesBrieflyEveryTwoSeconds() {
        let times = changes(LEDPattern.due.timeline, until: 6_000 * ms)
        #expect(times == [100, 2_000, 2_100, 4_000, 4_100, 6_000].map { $0 * ms })
        #expect(LEDPattern.due.timeline.level(atNanoseconds: 0))
    }

    @Test func measuringBlinksAtOneHertzAndSuccessHoldsThreeSeconds() {
        #expect(
            changes(LEDPattern.measuring.timeline, until: 2_000 * ms) == [500, 1_000, 1_500, 2_000].map { $0 * ms })
        #expect(changes(LEDPattern.success.timeline, until: 10_000 * ms) == [3_000 * ms])
        #expect(changes(LEDPattern.off.timeline, until: 10_000 * ms).isEmpty)
    }

    @Test(arguments: FaultCode.allCases)
    func faultPatternBlinksItsCodeOncePerCycle(code: FaultCode) {
        let timeline = LEDPattern.fault(code).timeline
        let cycle = timeline.cycleNanoseconds
        var blinks = timeline.level(atNanoseconds: 0) ? 1 : 0
        var time: UInt64 = 0
        while let next = timeline.nextChange(afterNanoseconds: time), next < cycle {
            if timeline.level(atNanoseconds: next) { blinks += 1 }
            time = next
        }
        #expect(blinks == code.rawValue)
        // The pause between groups is much longer than a gap inside a group.
        #expect(!timeline.level(atNanoseconds: cycle - 1_000 * ms))
        #expect(timeline.nextChange(afterNanoseconds: cycle - 1_500 * ms) == cycle)
    }
}
