import CareStorage
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `romdev daemon --simulate` as a process: the whole device on the simulator, its notifications
/// over a real datagram socket, and what signals do to it.
@Suite(.serialized) struct DaemonEndToEndTests {
    /// A store with the plan started today (UTC) and onboarding done, and the daemon's files.
    final class Device {
        let directory: TemporaryDirectory
        let notify: NotifyReceiver
        let stderrPath: String
        var process: Process?

        deinit {
            notify.stop()
        }

        init() throws {
            directory = try TemporaryDirectory()
            notify = try NotifyReceiver(directory: directory.path)
            stderrPath = directory.path + "/daemon.log"
            let today = Self.day(offset: 0)
            #expect(
                try RomdevProcess.run(["init", "--start", today, "--tz", "UTC"], environment: environment).status == 0)
            #expect(try RomdevProcess.run(["onboard", "--consent-by", "Test"], environment: environment).status == 0)
        }

        var environment: [String: String] {
            [
                "ROMDEV_STORE": directory.storePath, "ROMDEV_RUNTIME_DIR": directory.path + "/run",
                "HOME": directory.path,
            ]
        }

        /// `YYYY-MM-DD` of today plus `offset` days, in UTC (the tests' zone).
        static func day(offset: Int) -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let date = calendar.date(byAdding: .day, value: offset, to: Date())!
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        }

        /// Starts the daemon on tomorrow (day 1 of the plan, a range-of-motion day).
        func start(_ arguments: [String], scenario: String? = nil) throws {
            let process = Process()
            process.executableURL = RomdevProcess.executable
            process.arguments = ["daemon", scenario.map { "--simulate=\($0)" } ?? "--simulate"] + arguments
            var env = environment
            env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            env["TZ"] = "UTC"
            env["NOTIFY_SOCKET"] = notify.path
            process.environment = env
            #expect(FileManager.default.createFile(atPath: stderrPath, contents: nil))
            process.standardError = FileHandle(forWritingAtPath: stderrPath)
            process.standardOutput = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            self.process = process
        }

        var log: String {
            (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        }

        /// Waits (polling the log, at most `limit` seconds) for a line containing `text`.
        func waitForLog(_ text: String, limit: Double = 60) -> Bool {
            let deadline = Date().addingTimeInterval(limit)
            while Date() < deadline {
                if log.contains(text) { return true }
                if process?.isRunning == false { return log.contains(text) }
                usleep(5_000)
            }
            return false
        }

        func signal(_ number: CInt) {
            if let process { kill(process.processIdentifier, number) }
        }

        func wait() -> Int32 {
            process?.waitUntilExit()
            return process?.terminationStatus ?? -1
        }

        func rangeOfMotionOutcomes() throws -> [StoredOutcome] {
            let store = try CareStore(path: directory.storePath, timeZone: TimeZone(identifier: "UTC")!)
            #expect(try store.integrityProblem() == nil)
            return try store.fetchOutcomes(OutcomeQuery(taskIDs: ["rangeOfMotionCheck"]))
        }

        var tomorrowAt: (String) -> String { { "\(Self.day(offset: 1))T\($0)" } }

        /// Writes `text` as the daemon's configuration file; the options that name it.
        func configuration(_ text: String) throws -> [String] {
            let path = directory.path + "/romdev.conf"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return ["--config", path]
        }

        /// Runs the daemon with the configuration `text` for one measurement, pressed for at 10:00
        /// tomorrow, until it exits.
        func measureOnce(configuration text: String) throws -> Int32 {
            try start(
                try configuration(text) + [
                    "--start-at", tomorrowAt("10:00:00"), "--press-at", "1s", "--exit-after", "1", "--time-scale", "4",
                ])
            return wait()
        }
    }

    @Test func simulatedDeviceChimesMeasuresStoresAndNotifiesInOrder() throws {
        let device = try Device()
        try device.start([
            "--start-at", device.tomorrowAt("08:59:58"), "--press-at", "4s", "--exit-after", "1", "--time-scale", "4",
        ])
        #expect(device.wait() == 0)
        let log = device.log
        #expect(log.contains("<6>reminder 09:00: a measurement is due\n"))
        #expect(log.contains("<6>hold still\n"))
        #expect(log.contains("<5>stored range "))
        let outcomes = try device.rangeOfMotionOutcomes()
        #expect(outcomes.count == 1)
        let range = try #require(outcomes.first?.outcome.value(ofKind: "range")?.numberValue)
        #expect(range > 40 && range < 90, "range \(range)")

        let datagrams = device.notify.datagrams()
        let states = datagrams.flatMap { $0 }
        #expect(datagrams.first?.first == "READY=1")
        #expect(states.last == "STOPPING=1")
        #expect(states.contains("STATUS=measuring: hold still"))
        #expect(states.contains("STATUS=today's measurement is done"))
    }

    @Test func stopSignalMidSessionExitsZeroWithoutAnOutcome() throws {
        let device = try Device()
        try device.start(["--start-at", device.tomorrowAt("10:00:00"), "--press-at", "1s", "--time-scale", "2"])
        #expect(device.waitForLog("<6>hold still"))
        device.signal(SIGTERM)
        #expect(device.wait() == 0)
        #expect(device.log.contains("<5>measurement aborted by the stop request; nothing stored\n"))
        #expect(device.log.contains("<6>sim ") && device.log.hasSuffix("<5>stopped\n"))
        #expect(try device.rangeOfMotionOutcomes().isEmpty)
        #expect(device.notify.datagrams().flatMap { $0 }.last == "STOPPING=1")
        // LED and buzzer were left off.
        for line in ["LED", "buzzer"] {
            let last = device.log.split(separator: "\n").last { $0.hasPrefix("<6>sim ") && $0.contains(" \(line) ") }
            #expect(last?.hasSuffix(" off") == true, "\(line)")
        }
    }

    @Test func killedTheMomentItReportsAResultLeavesThatResultWholeInAnIntactStore() throws {
        // The daemon reports a result only once its write is committed, so a kill without
        // warning as soon as the report is out must find the result stored, with all its values.
        let device = try Device()
        try device.start(["--start-at", device.tomorrowAt("10:00:00"), "--press-at", "1s", "--time-scale", "4"])
        #expect(device.waitForLog("<5>stored range "))
        device.signal(SIGKILL)
        #expect(device.wait() == SIGKILL)
        let outcomes = try device.rangeOfMotionOutcomes()
        #expect(outcomes.count == 1)
        if let stored = outcomes.first { #expect(stored.outcome.values.count >= 6) }
    }

    /// Without a scenario named, the simulated patient does the protocol the daemon guides: here
    /// the configuration's arc, whose second step an extension alone leaves waiting to the time-out.
    @Test func theSimulatedPatientDoesTheConfiguredArc() throws {
        let device = try Device()
        #expect(try device.measureOnce(configuration: "protocol = arc\n") == 0)
        let outcome = try #require(try device.rangeOfMotionOutcomes().first?.outcome)
        #expect(outcome.value(ofKind: "protocol")?.value == .text("arc"))
        #expect(outcome.values.filter { $0.kind == "flag" }.isEmpty, "\(device.log)")
        let flexion = try #require(outcome.value(ofKind: "knee_flexion")?.numberValue)
        #expect(flexion > 110, "knee_flexion \(flexion)")
    }

    @Test func measuresWithTheConfiguredThighSensor() throws {
        let device = try Device()
        // With thigh_address set, the simulated bus has the thigh's board at 0x69 too.
        #expect(try device.measureOnce(configuration: "thigh_address = 0x69\n") == 0)
        #expect(device.log.contains("<5>stored range "))
        #expect(!device.log.contains("motion sensor not answering"))
        #expect(try device.rangeOfMotionOutcomes().count == 1)
    }

    @Test func missingSensorKeepsTheDaemonRunning() throws {
        let device = try Device()
        // The simulated sensor answers at 0x68 only.
        try device.start(
            try device.configuration("i2c_address = 0x69\n") + [
                "--start-at", device.tomorrowAt("10:00:00"), "--press-at", "1s", "--time-scale", "4",
            ])
        #expect(device.waitForLog("no measurement: motion sensor missing", limit: 20))
        device.signal(SIGTERM)
        #expect(device.wait() == 0)
        #expect(device.log.contains("<4>motion sensor not answering on simulated sensor: "))
        let states = device.notify.datagrams().flatMap { $0 }
        #expect(states.first == "READY=1")
        #expect(states.contains { $0.hasPrefix("STATUS=motion sensor missing on simulated sensor") })
        #expect(states.last == "STOPPING=1")
        #expect(try device.rangeOfMotionOutcomes().isEmpty)
    }

    /// Without a scenario named, the simulated patient does the calibration's faces and swing.
    @Test func calibrateGoesThroughTheDaemonAndIsSavedNextToTheStore() throws {
        let device = try Device()
        try device.start(["--start-at", device.tomorrowAt("10:00:00"), "--time-scale", "4", "--press-at", "1000s"])
        #expect(device.waitForLog("<5>ready: ", limit: 20))
        let saved = try RomdevProcess.run(["calibrate"], environment: device.environment)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout.hasPrefix("Calibrated by the romdev daemon: calibration saved: "))
        device.signal(SIGTERM)
        #expect(device.wait() == 0)
        #expect(device.log.contains("<5>calibration started (requested over the control socket)\n"))
        #expect(FileManager.default.fileExists(atPath: device.directory.path + "/calibration.json"))
        #expect(device.notify.datagrams().flatMap { $0 }.contains("STATUS=calibrating: extend the knee once"))
    }

    @Test func simulationOptionsNeedSimulate() throws {
        let result = try RomdevProcess.run(["daemon", "--press-at", "2s"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: The option '--press-at' only applies with '--simulate'"))
        #expect(try RomdevProcess.run(["daemon", "--simulate", "--time-scale", "0"]).status == 64)
        #expect(try RomdevProcess.run(["daemon", "--simulate", "--press-at", "soon"]).status == 64)
        let boardOnly = try RomdevProcess.run(["daemon", "--board-gpio"])
        #expect(boardOnly.status == 64)
        #expect(boardOnly.stderr.hasPrefix("Error: The option '--board-gpio' only applies with '--simulate'"))
        let scripted = try RomdevProcess.run(["daemon", "--simulate", "--board-gpio", "--press-at", "2s"])
        #expect(scripted.status == 64)
        #expect(scripted.stderr.hasPrefix("Error: The option '--press-at' does not apply with '--board-gpio'"))
    }
}
