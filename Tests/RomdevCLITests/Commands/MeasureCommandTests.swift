import CareStorage
import Foundation
import Fusion
import ServiceSupport
import Testing

@testable import RomdevCLI

/// `romdev measure` in process on the simulated sensor, faster than real time (a manual clock).
struct MeasureCommandTests {
    /// 2026-06-15 09:30 in Paris: day 8 of a plan started 2026-06-07, between two weekly events.
    static let dayWithoutEvent = InProcessRomdev.sunday0930.addingTimeInterval(8 * 86_400)

    private func outcomes(_ romdev: InProcessRomdev, task: String) throws -> [[String: Any]] {
        let output = try romdev.run(["outcomes", "--task", task, "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    }

    @Test func recordsTheRangeFirstThenTheAnglesOnTodaysEvent() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let output = try romdev.run(["measure", "--simulate", "--seed", "4"])
        #expect(output.contains("Ready: extend your left knee"))
        #expect(output.contains("Recorded on rangeOfMotionCheck occurrence 0 (2026-06-07)."))
        let stored = try outcomes(romdev, task: "rangeOfMotionCheck")
        #expect(stored.count == 1)
        let values = try #require(stored.first?["values"] as? [[String: Any]])
        #expect(
            values.map { $0["kind"] as? String } == [
                "range", "start", "finish", "minimum", "maximum", "knee_extension", "knee_flexion", "knee_arc", "limb",
                "protocol", "knee_source",
            ])
        #expect(values.prefix(8).allSatisfy { $0["units"] as? String == "deg" && $0["type"] as? String == "double" })
        #expect(values.suffix(3).map { $0["value"] as? String } == ["left", "extension", "seated-assumption"])
        let range = try #require(values.first?["value"] as? Double)
        let maximum = try #require(values[4]["value"] as? Double), minimum = try #require(values[3]["value"] as? Double)
        #expect(abs(range - (maximum - minimum)) < 1e-9)
        // The knee-extension scenario goes from 5° to 70°; uncalibrated, a few degrees off.
        #expect(abs(range - 65) < 4)
    }

    @Test func printsJSONWithTheStoredOutcome() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let output = try romdev.run(["measure", "--simulate", "--json", "--limb", "right"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(json["ended"] as? String == "returned")
        #expect(json["limb"] as? String == "right")
        #expect((json["flags"] as? [String])?.isEmpty == true)
        let outcome = try #require(json["outcome"] as? [String: Any])
        #expect(outcome["task_id"] as? String == "rangeOfMotionCheck")
        #expect((outcome["values"] as? [[String: Any]])?.first?["value"] as? Double == json["range"] as? Double)
    }

    /// One result, one JSON: `measure --json`, `replay --json` of the same motion and the control
    /// socket's reply decode to the same result, whose outcome values are what was stored.
    @Test func measureReplayAndTheControlReplyPrintTheResultsOneJSON() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let measuredText = try romdev.run(["measure", "--simulate", "--seed", "4", "--json"])
        let measured = try JSONDecoder().decode(RangeOfMotionResult.self, from: Data(measuredText.utf8))
        let stored = try #require(
            try CareStore(path: romdev.directory.storePath, timeZone: romdev.timeZone).fetchOutcomes().last)
        #expect(stored.outcome.values == measured.outcomeValues(limb: .left, createdDate: stored.outcome.createdDate))

        let recording = romdev.directory.path + "/same.csv"
        try romdev.run(["record", "--simulate", "--seed", "4", "--seconds", "30", "--output", recording])
        let replayedText = try romdev.run(["replay", recording, "--json"])
        let replayed = try JSONDecoder().decode(RangeOfMotionResult.self, from: Data(replayedText.utf8))
        #expect(replayed == measured)

        let reply = try ControlReply.ok("stored", payload: measured)
        let received = try ControlReply(line: Array(reply.line.dropLast()))
        #expect(try received.decodePayload(as: RangeOfMotionResult.self) == measured)
        // The same members, in the same words, wherever the result is printed.
        let keys = { (text: String) in
            Set(try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]).keys)
        }
        let resultKeys = Set(RangeOfMotionResult.CodingKeys.allCases.map(\.stringValue))
        #expect(try keys(String(decoding: try #require(received.payload), as: UTF8.self)) == resultKeys)
        #expect(try keys(measuredText).isSuperset(of: resultKeys))
        #expect(try keys(replayedText).isSuperset(of: resultKeys))
    }

    @Test func aLegThatNeverMovesIsRefusedAndNothingIsStored() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let before = try romdev.snapshot()
        // The leg never moves: the session times out with a range of ~0, which is no measurement.
        let failure = try #require(romdev.failure(["measure", "--simulate=still"]) as? CommandFailure)
        #expect(failure.why?.hasPrefix("the knee did not move") == true)
        #expect(try romdev.snapshot() == before)
    }

    @Test func refusesBeforeOnboardingAndStoresNothing() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris"])
        let before = try romdev.snapshot()
        let failure = try #require(romdev.failure(["measure", "--simulate"]) as? CommandFailure)
        #expect(
            failure.why == "cannot record 'rangeOfMotionCheck' before onboarding is done: complete onboarding first")
        #expect(try romdev.snapshot() == before)
    }

    @Test func refusesOnADayWithoutAnEventAndStoresNothing() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        romdev.now = Self.dayWithoutEvent
        let before = try romdev.snapshot()
        let failure = try #require(romdev.failure(["measure", "--simulate"]) as? CommandFailure)
        #expect(failure.why == "no range-of-motion measurement is due today (2026-06-15)")
        #expect(failure.hint?.contains("--unscheduled") == true)
        #expect(try romdev.snapshot() == before)
    }

    @Test func refusesASecondMeasurementOfTheSameEvent() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["measure", "--simulate"])
        let before = try romdev.snapshot()
        let failure = try #require(romdev.failure(["measure", "--simulate"]) as? CommandFailure)
        #expect(failure.why == "today's rangeOfMotionCheck event already has an outcome")
        #expect(try romdev.snapshot() == before)
    }

    @Test func recordsAnUnscheduledMeasurementOnItsOwnTaskOncePerDay() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        romdev.now = Self.dayWithoutEvent
        let output = try romdev.run(["measure", "--simulate", "--unscheduled"])
        #expect(output.contains("Recorded on rangeOfMotionUnscheduled occurrence 0 (2026-06-15)."))
        let tasks = try romdev.run(["tasks", "--json"])
        #expect(tasks.contains("\"rangeOfMotionUnscheduled\""))
        // Not counted in adherence: the day's only adherence event is the (missed) check-in.
        let adherence = try romdev.run(["adherence", "--from", "2026-06-15", "--to", "2026-06-16", "--json"])
        #expect(adherence.contains("\"fraction\": 0"))
        let before = try romdev.snapshot()
        let failure = try #require(romdev.failure(["measure", "--simulate", "--unscheduled"]) as? CommandFailure)
        #expect(failure.why == "today's rangeOfMotionUnscheduled event already has an outcome")
        #expect(try romdev.snapshot() == before)
    }

    @Test func refusesADamagedDefaultCalibrationAndStoresNothing() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try "{\"version\": 1, \"gyroBias\": 3}".write(
            toFile: romdev.directory.path + "/calibration.json", atomically: true, encoding: .utf8)
        let before = try romdev.snapshot()
        let failure = try #require(romdev.failure(["measure", "--simulate"]) as? CommandFailure)
        #expect(failure.what.hasSuffix("/calibration.json"))
        #expect(failure.why == "it is damaged or incomplete")
        #expect(try romdev.snapshot() == before)
    }

    @Test func aMissingExplicitCalibrationIsAnError() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let failure = try #require(
            romdev.failure(["measure", "--simulate", "--calibration", romdev.directory.path + "/none.json"])
                as? CommandFailure)
        #expect(failure.why == "no such file")
    }

    @Test func theArcProtocolMeasuresFlexionPastNinetyAndStoresTheKneeAngles() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let output = try romdev.run(["measure", "--simulate=knee-arc", "--seed", "5", "--protocol", "arc", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(json["protocol"] as? String == "arc")
        #expect(json["ended"] as? String == "returned")
        // The knee-arc scenario: inclination 5° → 75° → 5° → −30° → 5°. Uncalibrated, the start is
        // taken as the hanging shin: knee 20° (true 15°) to 125° (true 120°), an arc of 105°.
        let extensionAngle = try #require(json["knee_extension"] as? Double)
        let flexion = try #require(json["knee_flexion"] as? Double), arc = try #require(json["knee_arc"] as? Double)
        #expect(abs(extensionAngle - 20) < 4, "knee_extension \(extensionAngle)")
        #expect(abs(flexion - 125) < 4, "knee_flexion \(flexion)")
        #expect(abs(arc - (flexion - extensionAngle)) < 1e-9)
        let csv = try romdev.run(["export", "--format", "csv"])
        for kind in ["knee_extension", "knee_flexion", "knee_arc"] {
            #expect(csv.contains(",\(kind),double,"), "\(kind)")
        }
        #expect(csv.contains(",protocol,text,arc,"))
        let today = try romdev.run(["today"])
        #expect(today.contains("knee_extension ") && today.contains("knee_flexion ") && today.contains("knee_arc "))
    }

    @Test func theCarePlansProtocolGuidesTheSessionWithoutTheOption() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris", "--protocol", "arc"])
        try romdev.run(["onboard", "--consent-by", "Ann Example"])
        let output = try romdev.run(["measure", "--simulate=knee-arc"])
        let steps = [
            "Ready (step 1 of 2)", "Step 2 of 2: slide your left foot back under the chair",
            "Done: the leg is back and still.",
        ]
        let positions = steps.map { output.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil }, "\(output)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(output.contains("Knee (arc): extension"))
        // --protocol overrides the plan: the extension alone ends at the first return.
        romdev.now = Self.dayWithoutEvent
        let extensionOnly = try romdev.run([
            "measure", "--simulate=knee-arc", "--protocol", "extension", "--unscheduled",
        ])
        #expect(!extensionOnly.contains("Step 2 of 2"))
        #expect(extensionOnly.contains("Knee (extension): extension"))
    }

    /// `--simulate` without a scenario plays the arc the session asks for, instead of an extension
    /// alone that leaves the arc's second step waiting to its time-out, flagged `no-flexion`.
    @Test func theSimulatedPatientDoesTheProtocolWhenNoScenarioIsNamed() throws {
        let romdev = try InProcessRomdev()
        try romdev.run(["init", "--start", "2026-06-07", "--tz", "Europe/Paris", "--protocol", "arc"])
        try romdev.run(["onboard", "--consent-by", "Ann Example"])
        let output = try romdev.run(["measure", "--simulate", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(json["protocol"] as? String == "arc")
        #expect(json["ended"] as? String == "returned")
        #expect(json["flags"] as? [String] == [], "\(output)")
        let flexion = try #require(json["knee_flexion"] as? Double)
        #expect(flexion > 110, "knee_flexion \(flexion)")
    }

    @Test func aBadLimbIsAUsageError() {
        #expect(throws: UsageError.self) { try Romdev.tool.parse(["measure", "--limb", "middle"]) }
    }
}
