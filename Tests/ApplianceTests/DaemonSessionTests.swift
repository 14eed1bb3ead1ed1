import Appliance
import Care
import CareStorage
import Foundation
import Fusion
import GPIO
import Sampling
import Sensor
import ServiceSupport
import Testing

/// The daemon guiding measurements: the button, cues, the store, failures and stop signals.
@Suite("Daemon sessions")
struct DaemonSessionTests {
    /// A harness at 2026-06-08 08:59:50 (day 6 of the plan, a range-of-motion day).
    private func dueDay(
        presses: [ScriptedPress] = [], scripts: [[(seconds: Double, event: GuidedMeasurementEvent)]] = [],
        sensorProblem: MPU6050Error? = nil
    ) throws -> DaemonHarness {
        try DaemonHarness(
            start: { $0.local(2026, 6, 8, 8, 59, 50) }, planStart: { $0.local(2026, 6, 2) }, presses: presses,
            sensorProblem: sensorProblem, scripts: scripts)
    }

    @Test func pressRunsTheGuidedSessionAndStoresBeforeTheDoneCue() throws {
        let harness = try dueDay(presses: [ScriptedPress(atSeconds: 20)])
        harness.exitAfter = 1
        try harness.run(until: harness.local(2026, 6, 8, 10))

        let outcomes = try harness.rangeOfMotionOutcomes()
        #expect(outcomes.count == 1)
        let values = try #require(outcomes.first?.outcome.values)
        #expect(
            values.map(\.kind) == [
                "range", "start", "finish", "minimum", "maximum", "knee_extension", "knee_flexion", "knee_arc", "limb",
                "protocol", "knee_source",
            ])
        // Seated: knee flexion = 90° − inclination, so the most extended 74° is a 16° lag.
        #expect(values.prefix(8).map(\.numberValue) == [73, 2, 3, 1, 74, 16, 89, 73])
        #expect(values.prefix(8).allSatisfy { $0.units == "deg" })
        #expect(values.suffix(3).map(\.value) == [.text("left"), .text("extension"), .text("seated-assumption")])
        // Reminder at 09:00, then hold still (press at 09:00:10), go (+2 s), done (+10 s).
        let chimes = harness.outcomesAtChimeStarts
        #expect(chimes.count == 4)
        #expect(chimes.map(\.1) == [0, 0, 0, 1])  // the result was stored before "done" sounded
        let messages = harness.output.messages
        let order = ["measurement started", "hold still", "go: extend the knee", "stored range 73.0°"]
        let positions = order.map { step in messages.firstIndex { $0.hasPrefix(step) } }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(messages.contains("1 measurement done; stopping as asked"))
        // Neither the configuration nor the plan asks for more than the extension.
        #expect(harness.measurements.protocols == [.extension])
        // The success pattern: the LED on for 3 s after the result.
        #expect(harness.chip.changes.contains { $0.line.name == "GPIO27" && $0.value })
        #expect(harness.output.states.last == .stopping)
    }

    @Test func theArcProtocolCuesTheFlexionStepWhenTheConfigurationAsksForIt() throws {
        let harness = try dueDay(
            presses: [ScriptedPress(atSeconds: 20)],
            scripts: [
                [
                    (0, .holdStill), (2, .go), (3, .moving), (8, .flex), (9, .moving),
                    (14, .finished(ScriptedMeasurements.result)),
                ]
            ])
        harness.configuration.measurementProtocol = .arc
        harness.exitAfter = 1
        try harness.run(until: harness.local(2026, 6, 8, 10))
        #expect(harness.measurements.protocols == [.arc])
        #expect(try harness.rangeOfMotionOutcomes().count == 1)
        // Reminder, hold still, go, the second go (the foot under the chair), done.
        #expect(harness.outcomesAtChimeStarts.map(\.1) == [0, 0, 0, 0, 1])
        let messages = harness.output.messages
        let order = [
            "measurement started (arc)", "go: extend the knee", "go: slide the foot back under the chair",
            "stored range",
        ]
        let positions = order.map { step in messages.firstIndex { $0.hasPrefix(step) } }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    @Test func aRequestsProtocolComesBeforeTheConfigurations() throws {
        let harness = try dueDay()
        harness.configuration.measurementProtocol = .extension
        harness.requests.send(.measure(limb: nil, protocolName: "arc"), at: harness.start.addingTimeInterval(15))
        harness.exitAfter = 1
        try harness.run(until: harness.local(2026, 6, 8, 10))
        #expect(harness.measurements.protocols == [.arc])
    }

    @Test func withoutAConfiguredProtocolTheCarePlansIsFollowed() throws {
        let harness = try dueDay(presses: [ScriptedPress(atSeconds: 20)])
        try harness.store.setMetadata(RangeOfMotionProtocol.arc.rawValue, for: .rangeOfMotionProtocol)
        harness.exitAfter = 1
        try harness.run(until: harness.local(2026, 6, 8, 10))
        #expect(harness.measurements.protocols == [.arc])
    }

    @Test func stopSignalMidSessionAbortsWithoutAnOutcome() throws {
        let harness = try dueDay(presses: [ScriptedPress(atSeconds: 20)])
        let stopAt = harness.local(2026, 6, 8, 9, 0, 16)  // after "go", before the result
        try harness.run(until: harness.local(2026, 6, 8, 10)) { $0 >= stopAt }
        #expect(try harness.rangeOfMotionOutcomes().isEmpty)
        #expect(harness.measurements.started.first?.aborted == true)
        #expect(harness.output.messages.contains("measurement aborted by the stop request; nothing stored"))
        #expect(harness.output.states.first == .ready)
        #expect(harness.output.states.last == .stopping)
        // Every output ends off.
        for line in ["GPIO22", "GPIO27"] {
            #expect(harness.chip.changes.last { $0.line.name == line }?.value == false, "\(line)")
        }
    }

    @Test func sensorFaultMidSessionGivesTheErrorCueStoresNothingAndCarriesOn() throws {
        let fault = MeasurementError.sensor(
            .fifoStalled(address: 0x68, devicePath: "/dev/i2c-1", seconds: 0.5), afterSamples: 800)
        let harness = try dueDay(
            presses: [ScriptedPress(atSeconds: 20), ScriptedPress(atSeconds: 90)],
            scripts: [[(0, .holdStill), (2, .go), (4, .failed(fault))], ScriptedMeasurements.success()])
        harness.exitAfter = 2
        try harness.run(until: harness.local(2026, 6, 8, 10))
        #expect(
            harness.output.logs.contains { $0.0 == .error && $0.1 == "measurement failed: \(fault); nothing stored" })
        // The error chime (two long tones) sounded, then the second session stored its result.
        #expect(harness.measurements.started.count == 2)
        #expect(try harness.rangeOfMotionOutcomes().count == 1)
        #expect(harness.sensor.probes >= 2)  // checked again before the second session
        // The failure's LED pattern: groups of 3 blinks.
        let blinks = harness.chip.changes.filter { $0.line.name == "GPIO27" && $0.value }.map(\.atNanoseconds)
        let gaps = zip(blinks, blinks.dropFirst()).map { $1 - $0 }
        #expect(gaps.contains(500_000_000))
    }

    @Test func missingSensorKeepsTheDaemonRunningAndRetrying() throws {
        let harness = try dueDay(
            presses: [ScriptedPress(atSeconds: 20), ScriptedPress(atSeconds: 200)],
            sensorProblem: .bus(I2CError(.open, devicePath: "/dev/i2c-1", errno: .noSuchFileOrDirectory)))
        harness.exitAfter = 1
        let plugIn = harness.local(2026, 6, 8, 9, 2)
        harness.onTurn = { now in if now >= plugIn { harness.sensor.currentProblem = nil } }
        try harness.run(until: harness.local(2026, 6, 8, 10))
        #expect(harness.output.states.first == .ready)
        #expect(
            harness.output.states.contains {
                if case .status(let s) = $0 {
                    s.hasPrefix("motion sensor missing on /dev/i2c-1 at 0x68")
                } else {
                    false
                }
            })
        #expect(harness.output.messages.contains { $0.hasPrefix("no measurement: motion sensor missing") })
        #expect(harness.output.messages.contains("motion sensor answers on /dev/i2c-1 at 0x68"))
        #expect(harness.measurements.started.count == 1)
        #expect(try harness.rangeOfMotionOutcomes().count == 1)
    }

    @Test func longPressCancelsAndShortPressEndsEarly() throws {
        let harness = try dueDay(
            presses: [
                ScriptedPress(atSeconds: 20), ScriptedPress(atSeconds: 24, holdSeconds: 2),
                ScriptedPress(atSeconds: 60), ScriptedPress(atSeconds: 64),
            ],
            scripts: [
                [(0, .holdStill), (2, .go), (100, .finished(ScriptedMeasurements.result))],
                [(0, .holdStill), (2, .go), (8, .finished(ScriptedMeasurements.result))],
            ])
        harness.exitAfter = 2
        try harness.run(until: harness.local(2026, 6, 8, 10))
        #expect(harness.output.messages.contains("measurement cancelled by a long press"))
        #expect(harness.output.messages.contains("measurement cancelled; nothing stored"))
        #expect(harness.measurements.started.count == 2)
        #expect(harness.measurements.started[1].stopped)
        #expect(try harness.rangeOfMotionOutcomes().count == 1)
    }

    @Test func pressOnADoneDayStartsNothing() throws {
        let harness = try dueDay(presses: [ScriptedPress(atSeconds: 20), ScriptedPress(atSeconds: 60)])
        try harness.run(until: harness.local(2026, 6, 8, 9, 5))
        #expect(harness.measurements.started.count == 1)
        #expect(
            harness.output.messages.contains("no measurement: today's rangeOfMotionCheck event already has an outcome"))
    }

    /// Implausible angles, and a leg that never moved (the session times out with ~0°): nothing is
    /// stored, the patient hears why, and the day's measurement stays due.
    static let unusableResults: [(RangeOfMotionResult, String)] = [
        (
            RangeOfMotionResult(start: 0, finish: 0, minimum: -90, maximum: 170, flags: .implausible),
            "measurement not usable: implausible angles"
        ),
        (
            RangeOfMotionResult(start: 0, finish: 0.03, minimum: -0.02, maximum: 0.06, flags: .noMovement),
            "measurement not usable: the knee did not move"
        ),
    ]

    @Test(arguments: DaemonSessionTests.unusableResults)
    func unusableResultIsNotStored(result: RangeOfMotionResult, message: String) throws {
        let harness = try dueDay(
            presses: [ScriptedPress(atSeconds: 20)], scripts: [ScriptedMeasurements.success(result)])
        harness.exitAfter = 1
        try harness.run(until: harness.local(2026, 6, 8, 10))
        #expect(try harness.rangeOfMotionOutcomes().isEmpty)
        #expect(harness.output.messages.contains { $0.hasPrefix(message) })
        #expect(!harness.output.messages.contains { $0.contains("stored range") })
    }

    @Test func notificationsComeInOrderWithWatchdogPings() throws {
        let harness = try dueDay(presses: [ScriptedPress(atSeconds: 20)])
        harness.watchdog = ServiceWatchdog(environment: ["WATCHDOG_USEC": "10000000"], processID: 1)
        harness.exitAfter = 1
        try harness.run(until: harness.local(2026, 6, 8, 10))
        let states = harness.output.states
        #expect(states.first == .ready)
        #expect(states.last == .stopping)
        #expect(states.filter { $0 == .stopping }.count == 1)
        let pings = states.indices.filter { states[$0] == .watchdog }
        #expect(pings.count >= 3)
        #expect(pings.allSatisfy { $0 > 0 && $0 < states.count - 1 })
        #expect(states.contains(.status("measuring: hold still")))
        #expect(states.contains(.status("today's measurement is done")))
    }

    @Test func controlRequestsAreServedFromTheLoop() throws {
        let harness = try dueDay()
        harness.exitAfter = 2
        let at = { (seconds: Double) in harness.start.addingTimeInterval(seconds) }
        harness.requests.send(.status, at: at(5))
        harness.requests.send(.calibrate, at: at(5))
        harness.requests.send(.measure(limb: "right"), at: at(20))
        harness.requests.send(.measure(limb: nil), at: at(25))
        // After the scheduled one: recorded on the unscheduled task, as `romdev measure --unscheduled` records it.
        harness.requests.send(.measure(limb: nil, unscheduled: true), at: at(60))
        harness.requests.send(.exportDone(files: ["a.csv", "a.json"]), at: at(10))
        try harness.run(until: harness.local(2026, 6, 8, 10))
        let replies = harness.requests.replies
        try #require(replies.map(\.0.name) == ["status", "calibrate", "export-done", "measure", "measure", "measure"])
        #expect(replies[0].1.status == .ok)
        #expect(replies[0].1.message.hasPrefix("range-of-motion measurement due today"))
        #expect(replies[1].1.status == .failed)
        #expect(replies[2].1.status == .ok)
        #expect(harness.output.messages.contains("export finished: 2 files; the stick may be removed"))
        #expect(replies[3].1 == .busy("a measurement is running"))
        #expect(replies[4].1.status == .ok)
        #expect(replies[4].1.message.hasPrefix("stored range 73.0°"))
        #expect(try replies[4].1.decodePayload(as: RangeOfMotionResult.self) == ScriptedMeasurements.result)
        #expect(replies[5].1.status == .ok)
        let outcomes = try harness.rangeOfMotionOutcomes()
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.outcome.value(ofKind: "limb")?.value == .text("right"))
        let unscheduled = try harness.store.fetchOutcomes(
            OutcomeQuery(taskIDs: [RecoverCarePlan.TaskID.rangeOfMotionUnscheduled]))
        #expect(
            unscheduled.map(\.outcome.values) == [
                ScriptedMeasurements.result.outcomeValues(limb: .left, createdDate: unscheduled[0].outcome.createdDate)
            ])
    }

    @Test func anUnscheduledRequestOnADayWithoutAnEventIsRecordedAsTheCommandLineRecordsIt() throws {
        let harness = try DaemonHarness(
            start: { $0.local(2026, 6, 8, 9, 30) }, planStart: { $0.local(2026, 5, 20) },
            presses: [ScriptedPress(atSeconds: 5)])
        harness.exitAfter = 1
        harness.requests.send(.measure(limb: "right", unscheduled: true), at: harness.start.addingTimeInterval(20))
        try harness.run(until: harness.local(2026, 6, 8, 10))
        // The press asked for the scheduled event: none today.
        #expect(
            harness.output.messages.contains("no measurement: no range-of-motion measurement is due today (2026-06-08)")
        )
        #expect(harness.requests.replies.map(\.1.status) == [.ok])
        #expect(try harness.rangeOfMotionOutcomes().isEmpty)
        let stored = try harness.store.fetchOutcomes(
            OutcomeQuery(taskIDs: [RecoverCarePlan.TaskID.rangeOfMotionUnscheduled]))
        #expect(stored.first?.outcome.value(ofKind: "limb")?.value == .text("right"))
    }
}

extension DaemonSessionTests {
    @Test func calibrationRequestIsGuidedWithCuesAndAnswered() throws {
        let harness = try dueDay(presses: [ScriptedPress(atSeconds: 15)])
        let calibrations = ScriptedCalibrations(
            clock: harness.clock,
            script: [
                (0, .holdStill), (4, .nextFace(captured: 1)), (8, .nextFace(captured: 2)), (10, .retakeFace("+x")),
                (12, .strapOn), (15, .swing),
                (20, .saved("gyro bias (0.1, -0.2, 0.0) °/s")),
            ])
        harness.calibrations = calibrations
        let at = { (seconds: Double) in harness.start.addingTimeInterval(seconds) }
        harness.requests.send(.calibrate, at: at(5))
        harness.requests.send(.measure(limb: nil), at: at(10))
        harness.requests.send(.calibrate, at: at(12))
        try harness.run(until: at(60))
        let replies = harness.requests.replies
        try #require(replies.count == 3)
        #expect(replies[0].1 == .busy("a calibration is running"))
        #expect(replies[1].1 == .busy("a calibration is running"))
        #expect(replies[2].1 == .ok("calibration saved: gyro bias (0.1, -0.2, 0.0) °/s"))
        // The press at 15 s came during the calibration (from about 5 s, 20 s long): ignored.
        #expect(harness.measurements.started.isEmpty)
        #expect(harness.output.states.contains(.status("calibrating: face 1 of 6 done, turn it +y up")))
        #expect(
            harness.output.states.contains(
                .status("calibrating: samples were lost in a tip, turn it +x up to make it again")))
        #expect(harness.output.messages.contains("calibration saved: gyro bias (0.1, -0.2, 0.0) °/s"))
        #expect(calibrations.started == 1)
    }

    @Test func stopSignalAbortsACalibration() throws {
        let harness = try dueDay()
        harness.calibrations = ScriptedCalibrations(
            clock: harness.clock, script: [(0, .holdStill), (100, .saved("x"))])
        harness.requests.send(.calibrate, at: harness.start.addingTimeInterval(5))
        try harness.run(until: harness.start.addingTimeInterval(30))
        #expect(harness.requests.replies.map(\.1) == [.failed("the daemon is stopping; the calibration was aborted")])
        #expect(harness.output.states.last == .stopping)
    }
}

/// The daemon with the real measurement on the simulated sensor, faster than real time.
@Suite("Daemon on the simulated sensor")
struct DaemonSimulatedSensorTests {
    /// Whether a thigh sensor is configured, and fitted on the simulated bus.
    enum Thigh {
        case none, fitted, missing
    }

    /// Opens the shank's board (with `fault`) on a simulated adapter, and the thigh's when one is
    /// configured: fitted at 0x69, or missing there.
    private func sensors(
        fault: SimulatedFault? = nil, scenario: SimulationScenario = .kneeExtension(seed: 7, peakDegrees: 70),
        thigh: Thigh = .none
    ) -> SensorProcedureStarter.OpenSensor {
        { _ throws(MPU6050Error) -> LegSensors in
            let clock = ManualClock()
            let adapter = SimulatedI2CAdapter(scenario: scenario, fittingThigh: thigh == .fitted, clock: clock)
            if let fault { adapter.board(at: MPU6050.defaultAddress)?.inject(fault) }
            let shank = try MPU6050(bus: adapter.open(), clock: clock)
            guard thigh != .none else { return LegSensors(shank: shank, thigh: nil) }
            return LegSensors(
                shank: shank, thigh: try MPU6050(bus: adapter.open(), address: MPU6050.alternateAddress, clock: clock))
        }
    }

    private func simulator(
        fault: SimulatedFault?, scenario: SimulationScenario = .kneeExtension(seed: 7, peakDegrees: 70),
        thigh: Thigh = .none
    ) -> SensorProcedureStarter {
        SensorProcedureStarter(
            configuration: .standard, calibration: nil, pacing: .sensorClock, saveCalibration: { _ in },
            openSensor: sensors(fault: fault, scenario: scenario, thigh: thigh))
    }

    @Test func measuresAKneeExtensionAndStoresIt() throws {
        let harness = try DaemonHarness(
            start: { $0.local(2026, 6, 8, 9, 30) }, planStart: { $0.local(2026, 6, 2) },
            presses: [ScriptedPress(atSeconds: 5)])
        harness.starter = simulator(fault: nil)
        harness.exitAfter = 1
        try harness.run(until: harness.local(2026, 6, 9))
        let outcome = try #require(try harness.rangeOfMotionOutcomes().first)
        let range = try #require(outcome.outcome.value(ofKind: "range")?.numberValue)
        // Extension from a 5° rest to 70°: the simulated shank moves through 65°.
        #expect(abs(range - 65) < 5, "range \(range)")
    }

    @Test func measuresTheFullArcAndStoresTheKneeAngles() throws {
        let harness = try DaemonHarness(
            start: { $0.local(2026, 6, 8, 9, 30) }, planStart: { $0.local(2026, 6, 2) },
            presses: [ScriptedPress(atSeconds: 5)])
        harness.starter = simulator(fault: nil, scenario: .kneeArc(seed: 7))
        harness.configuration.measurementProtocol = .arc
        harness.exitAfter = 1
        try harness.run(until: harness.local(2026, 6, 9))
        let outcome = try #require(try harness.rangeOfMotionOutcomes().first).outcome
        #expect(outcome.value(ofKind: "protocol")?.value == .text("arc"))
        let flexion = try #require(outcome.value(ofKind: "knee_flexion")?.numberValue)
        let arc = try #require(outcome.value(ofKind: "knee_arc")?.numberValue)
        // From 75° of inclination to −30°: the shank turns through 105°. Uncalibrated, the start (5°)
        // is taken as the hanging shin, so the flexion reads 5° more than the true 120°.
        #expect(abs(arc - 105) < 5, "arc \(arc)")
        #expect(abs(flexion - 125) < 5, "flexion \(flexion)")
        #expect(harness.output.messages.contains { $0.hasPrefix("go: slide the foot back under the chair") })
    }

    @Test func measuresWithTheThighSensorToo() throws {
        let harness = try DaemonHarness(
            start: { $0.local(2026, 6, 8, 9, 30) }, planStart: { $0.local(2026, 6, 2) },
            presses: [ScriptedPress(atSeconds: 5)])
        harness.starter = simulator(fault: nil, thigh: .fitted)
        harness.exitAfter = 1
        try harness.run(until: harness.local(2026, 6, 9))
        let outcome = try #require(try harness.rangeOfMotionOutcomes().first)
        let range = try #require(outcome.outcome.value(ofKind: "range")?.numberValue)
        #expect(abs(range - 65) < 5, "range \(range)")
    }

    @Test func aConfiguredThighSensorThatDoesNotAnswerRefusesTheMeasurementNamingItsAddress() {
        let missing = MPU6050Error.bus(
            I2CError(.read(count: 1), devicePath: "simulated-i2c", address: 0x69, register: 0x75, errno: .remoteIO))
        #expect(throws: missing) { try simulator(fault: nil, thigh: .missing).startMeasurement(.extension) }
        #expect(throws: missing) {
            try SensorIdentityProbe(location: "test", openSensor: sensors(thigh: .missing)).check()
        }
        #expect(missing.description.contains("from 0x69 on simulated-i2c"))
    }

    @Test func sensorUnpluggedMidSessionStoresNothing() throws {
        let harness = try DaemonHarness(
            start: { $0.local(2026, 6, 8, 9, 30) }, planStart: { $0.local(2026, 6, 2) },
            presses: [ScriptedPress(atSeconds: 5)])
        harness.starter = simulator(fault: .deviceGone(afterSeconds: 3))
        harness.exitAfter = 1
        try harness.run(until: harness.local(2026, 6, 9))
        #expect(try harness.rangeOfMotionOutcomes().isEmpty)
        #expect(
            harness.output.logs.contains { $0.0 == .error && $0.1.hasPrefix("measurement failed: the sensor failed") })
    }
}
