import Foundation
import Testing

@testable import RomdevCLI

/// `romdev measure` through the binary, in real time on the simulated sensor and its strict
/// Dispatch timer: one session (about ten seconds), and a refusal that never starts the sensor.
@Suite(.serialized) struct MeasureEndToEndTests {
    @Test func measuresInRealTimeAndRecordsTheOutcome() throws {
        let store = try CareEndToEndTests.Store.onboarded()
        let output = try store.ok(["measure", "--simulate", "--seed", "1"])
        #expect(output.contains("Done: the leg is back and still."))
        #expect(output.contains("Recorded on rangeOfMotionCheck occurrence 0"))
        #expect(output.contains(" 0 lost,"))
        let csv = try store.ok(["outcomes", "--task", "rangeOfMotionCheck", "--csv"])
        let kinds = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[8] }
        #expect(
            kinds == [
                "range", "start", "finish", "minimum", "maximum", "knee_extension", "knee_flexion", "knee_arc", "limb",
                "protocol", "knee_source",
            ])
    }

    @Test func refusesBeforeOnboardingWithExitStatus1() throws {
        let store = try CareEndToEndTests.Store()
        _ = try store.ok(["init", "--tz", "UTC"])
        let before = try store.snapshot()
        let result = try store.run(["measure", "--simulate"])
        #expect(result.status == 1)
        #expect(
            result.stderr == """
                Error: could not measure the range of motion: cannot record 'rangeOfMotionCheck' before onboarding is done: complete onboarding first
                Hint: run 'romdev onboard --consent-by NAME' first

                """)
        #expect(result.stdout.isEmpty)
        #expect(try store.snapshot() == before)
    }
}
