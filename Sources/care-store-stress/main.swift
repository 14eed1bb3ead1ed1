// Child process for the care store's multi-process tests.
//
//   care-store-stress write STORE TASK_ID COUNT
//       Records outcomes for occurrences 0..<COUNT of the task's current version, one
//       transaction each, printing "recorded N" after each commit.
//   care-store-stress read STORE COUNT
//       Reads every outcome repeatedly until at least COUNT are stored, then prints
//       "reads R outcomes N".
//
// CARE_STORE_STRESS_BUSY_TIMEOUT_MS sets the store's busy timeout (default 30 s). With
// CARE_STORE_STRESS_REPORT_BEGIN=1, "begin" is printed as each write transaction starts, before
// it waits for the write lock. Any error is printed to stderr with exit status 1.
import CareStorage
import Foundation

/// Writes a line straight to the file descriptor: a report must be out before the next write
/// starts, whatever stdout buffering would do.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("care-store-stress: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 3, let utc = TimeZone(identifier: "UTC") else {
    fail("usage: care-store-stress write STORE TASK_ID COUNT | read STORE COUNT")
}
let mode = arguments[arguments.startIndex]
let path = arguments[arguments.startIndex + 1]

do {
    let busyTimeout = ProcessInfo.processInfo.environment["CARE_STORE_STRESS_BUSY_TIMEOUT_MS"].flatMap { Int($0) }
    var trace: (@Sendable (String) -> Void)?
    if ProcessInfo.processInfo.environment["CARE_STORE_STRESS_REPORT_BEGIN"] == "1" {
        trace = { sql in
            if sql.hasPrefix("BEGIN IMMEDIATE") { report("begin") }
        }
    }
    let store = try CareStore(
        path: path, timeZone: utc, busyTimeout: .milliseconds(busyTimeout ?? 30_000), trace: trace)
    switch mode {
    case "write":
        guard arguments.count == 4, let count = Int(arguments[arguments.startIndex + 3]) else {
            fail("bad write arguments")
        }
        let taskID = arguments[arguments.startIndex + 2]
        let version = try store.fetchTaskVersions(id: taskID).head
        for occurrence in 0..<count {
            try store.addOutcome(
                NewOutcome(
                    taskUUID: version.uuid, occurrence: occurrence,
                    values: [.init(.integer(occurrence), kind: "stress", createdDate: Date())]),
                now: Date())
            report("recorded \(occurrence)")
        }
    case "read":
        guard let count = Int(arguments[arguments.startIndex + 2]) else { fail("bad read arguments") }
        var reads = 0
        // A watchdog, not a measurement: if the writers die, end rather than spin forever.
        let deadline = Date().addingTimeInterval(120)
        while true {
            let stored = try store.fetchOutcomes().count
            reads += 1
            if stored >= count {
                report("reads \(reads) outcomes \(stored)")
                break
            }
            if Date() > deadline { fail("gave up after \(reads) reads: \(stored) of \(count) outcomes") }
        }
    default:
        fail("unknown mode \(mode)")
    }
} catch {
    fail("\(error)")
}
