import Care
import CareStorage
import Foundation
import SQLite
import Testing

/// Several processes sharing one store file, through the `care-store-stress` helper built next
/// to the test binary. Assertions are about outcomes (nothing lost, nothing corrupt), never time.
@Suite struct MultiProcessTests {
    let fixture: StoreFixture

    init() throws {
        let fixture = try StoreFixture(timeZone: "UTC")
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let tasks = try ["stress-a", "stress-b"].map { id in
            CareTask(
                id: id,
                schedule: try Schedule(composing: [
                    try ScheduleElement(
                        start: start, interval: .hours(1), duration: .minutes(10), calendar: fixture.calendar)
                ]), createdDate: start)
        }
        try fixture.store.addTasks(tasks)
        self.fixture = fixture
    }

    private static var helper: URL {
        get throws {
            let candidates = [
                URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
                URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug"),
            ].map { $0.appendingPathComponent("care-store-stress") }
            return try #require(
                candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                "care-store-stress not built next to the tests (swift build --build-tests)")
        }
    }

    /// - Parameter settings: `CARE_STORE_STRESS_*` variables added to the environment.
    private func launch(_ arguments: [String], settings: [String: String] = [:], errors: Pipe? = nil) throws -> (
        Process, Pipe
    ) {
        let process = Process()
        process.executableURL = try Self.helper
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(settings) { $1 }
        let output = Pipe()
        process.standardOutput = output
        if let errors { process.standardError = errors }
        try process.run()
        return (process, output)
    }

    /// Reads the child's output until it holds `count` lines or ends.
    private func readLines(_ count: Int, from child: (Process, Pipe)) -> Data {
        var received = Data()
        while received.split(separator: UInt8(ascii: "\n")).count < count {
            let chunk = child.1.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        return received
    }

    private func finish(_ child: (Process, Pipe)) -> (status: Int32, lines: [String]) {
        let data = child.1.fileHandleForReading.readDataToEndOfFile()
        child.0.waitUntilExit()
        return (
            child.0.terminationStatus, String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        )
    }

    private func storedOccurrences(_ taskID: String) throws -> Set<Int> {
        Set(try fixture.store.fetchOutcomes(OutcomeQuery(taskIDs: [taskID])).map(\.outcome.taskOccurrenceIndex))
    }

    @Test func twoWritersAndAReaderLoseNothing() throws {
        let writerA = try launch(["write", fixture.path, "stress-a", "200"])
        let writerB = try launch(["write", fixture.path, "stress-b", "200"])
        let reader = try launch(["read", fixture.path, "400"])
        let a = finish(writerA), b = finish(writerB), r = finish(reader)
        #expect(a.status == 0)
        #expect(b.status == 0)
        #expect(r.status == 0)
        #expect(a.lines.count == 200)
        #expect(b.lines.count == 200)
        #expect(r.lines.last?.hasSuffix("outcomes 400") == true)
        #expect(try storedOccurrences("stress-a") == Set(0..<200))
        #expect(try storedOccurrences("stress-b") == Set(0..<200))
        #expect(try fixture.store.integrityProblem() == nil)
    }

    @Test func aWriterKilledMidStreamLeavesEveryReportedWrite() throws {
        let writer = try launch(["write", fixture.path, "stress-a", "100000"])
        // Let it report some commits, then kill it without warning.
        let received = readLines(40, from: writer)
        kill(writer.0.processIdentifier, SIGKILL)
        let rest = finish(writer)
        #expect(writer.0.terminationReason == .uncaughtSignal)
        let lines = (String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init) + rest.lines)
            .filter { $0.hasPrefix("recorded ") }  // the last line may be cut short
        let reported = Set(lines.compactMap { Int($0.dropFirst("recorded ".count)) })
        #expect(reported.count >= 40)

        let database = try Database(path: fixture.path)
        #expect(try database.read { try $0.fetchValue("PRAGMA integrity_check", as: String.self) } == "ok")
        let stored = try storedOccurrences("stress-a")
        #expect(reported.isSubset(of: stored))
        // At most the one write committed after the last report and before the kill.
        #expect(stored.count <= reported.count + 1)
        #expect(stored == Set(0..<stored.count))
    }

    @Test func aWriterWaitsForAnotherProcesssWriteThenSucceeds() throws {
        let database = try Database(path: fixture.path)
        let (writer, first) = try database.write { db in
            try db.execute("UPDATE meta SET value = value WHERE key = 'device_id'")
            let writer = try launch(
                ["write", fixture.path, "stress-b", "1"], settings: ["CARE_STORE_STRESS_REPORT_BEGIN": "1"])
            // The child's BEGIN IMMEDIATE has started while this transaction holds the lock, so
            // it cannot commit before this one does.
            return (writer, readLines(1, from: writer))
        }
        let result = finish(writer)
        #expect(result.status == 0)
        #expect(String(decoding: first, as: UTF8.self) == "begin\n")
        #expect(result.lines.filter { $0 != "begin" } == ["recorded 0"])
        #expect(try storedOccurrences("stress-b") == [0])
    }

    @Test func aWriterThatCannotGetTheLockFailsWithABusyError() throws {
        let database = try Database(path: fixture.path)
        let errors = Pipe()
        let result = try database.write { db in
            try db.execute("UPDATE meta SET value = value WHERE key = 'device_id'")
            // The lock is held until the child has given up.
            return finish(
                try launch(
                    ["write", fixture.path, "stress-b", "1"], settings: ["CARE_STORE_STRESS_BUSY_TIMEOUT_MS": "100"],
                    errors: errors))
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(result.status == 1)
        #expect(result.lines.isEmpty)
        #expect(message.contains("the care store is busy (another romdev process is writing); try again"))
        #expect(try storedOccurrences("stress-b").isEmpty)
    }
}
