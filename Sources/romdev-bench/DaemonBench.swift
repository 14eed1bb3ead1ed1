import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Daemon figures, with `--romdev PATH`: `romdev daemon --simulate` at real time as a process, on
/// a plan started today in UTC with onboarding done.
///
/// - Idle wakeups per second: the voluntary context switches of all the daemon's threads
///   (`/proc/PID/task/*/status`) over 10 s, each one a sleep that ended, with the watchdog on
///   (`WATCHDOG_USEC`, 10 s as in the unit); on a day with a measurement due (the LED flashes) and
///   on a day with none (the LED is dark).
/// - Release-to-first-cue latency: scripted short presses on a day with nothing due, each answered
///   with the error tones; from the release edge to the buzzer's first rise, both in the daemon's
///   simulated-GPIO log (10 ms resolution; the 30 ms debounce included).
///
/// `romdev-bench --daemon-only --romdev PATH` prints only these, e.g. for another build of romdev.
enum DaemonBench {
    static let onlyOption = "--daemon-only"

    static func run() {
        print("== daemon ==")
        let arguments = CommandLine.arguments
        guard
            let romdev = arguments.firstIndex(of: "--romdev").flatMap({
                $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
            })
        else {
            print("no --romdev: daemon not measured")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "romdev-daemon-bench-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let bench = Bench(romdev: romdev, directory: directory)
            try bench.prepareStore()
            for (label, day) in [("measurement due, LED flashing", 1), ("nothing due, LED dark", 8)] {
                let rate = try bench.idleWakeupsPerSecond(day: day)
                print(String(format: "idle wakeups (%@): %.1f per second", label, rate))
            }
            let latencies = try bench.releaseToCueMilliseconds(presses: 10)
            let sorted = latencies.sorted()
            print(
                String(
                    format:
                        "release to first cue: median %.0f ms, max %.0f ms over %d presses (30 ms debounce included)",
                    sorted[sorted.count / 2], sorted.last ?? 0, sorted.count))
        } catch {
            print("daemon bench failed: \(error)")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Bench {
        let romdev: String
        let directory: String

        var environment: [String: String] {
            [
                "ROMDEV_STORE": directory + "/care.sqlite", "ROMDEV_RUNTIME_DIR": directory + "/run", "HOME": directory,
                "TZ": "UTC", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                "WATCHDOG_USEC": "10000000",
            ]
        }

        /// `YYYY-MM-DD` of today plus `offset` days, in UTC.
        static func day(_ offset: Int) -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let date = calendar.date(byAdding: .day, value: offset, to: Date())!
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        }

        func prepareStore() throws {
            for arguments in [["init", "--start", Self.day(0), "--tz", "UTC"], ["onboard", "--consent-by", "Bench"]] {
                let process = try start(arguments, log: nil)
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    throw Failure(description: "romdev \(arguments[0]) failed")
                }
            }
        }

        func start(_ arguments: [String], log: String?) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: romdev)
            process.arguments = arguments
            process.environment = environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            if let log {
                _ = FileManager.default.createFile(atPath: log, contents: nil)
                process.standardError = FileHandle(forWritingAtPath: log)
            } else {
                process.standardError = FileHandle.nullDevice
            }
            try process.run()
            return process
        }

        /// Starts the simulated daemon at noon of plan day `day`, returns it once it is ready.
        func daemon(day: Int, presses: String, log: String) throws -> Process {
            let process = try start(
                ["daemon", "--simulate", "--start-at", "\(Self.day(day))T12:00:00", "--press-at", presses], log: log)
            let deadline = Date().addingTimeInterval(60)
            while !((try? String(contentsOfFile: log, encoding: .utf8))?.contains("ready: ") ?? false) {
                guard process.isRunning, Date() < deadline else {
                    throw Failure(description: "the daemon did not get ready")
                }
                usleep(10_000)
            }
            return process
        }

        func stop(_ process: Process) {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }

        func idleWakeupsPerSecond(day: Int) throws -> Double {
            let process = try daemon(day: day, presses: "3600s", log: directory + "/idle-\(day).log")
            defer { stop(process) }
            // Let start-up settle (the first store read, the first cues).
            sleep(1)
            let before = Self.voluntarySwitches(of: process.processIdentifier)
            let start = Date()
            sleep(10)
            let after = Self.voluntarySwitches(of: process.processIdentifier)
            return Double(after - before) / Date().timeIntervalSince(start)
        }

        /// The sum of `voluntary_ctxt_switches` over the process's threads.
        static func voluntarySwitches(of pid: Int32) -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.reduce(0) { total, task in
                let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
                let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
                return total + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
            }
        }

        func releaseToCueMilliseconds(presses count: Int) throws -> [Double] {
            // Short presses (0.2 s held) every 2 s from 2 s on.
            let pressTimes = (1...count).map { Double(2 * $0) }
            let log = directory + "/presses.log"
            let process = try daemon(day: 8, presses: pressTimes.map { "\(Int($0))s" }.joined(separator: ","), log: log)
            let end = Date().addingTimeInterval(pressTimes.last! + 3)
            while Date() < end, process.isRunning { usleep(100_000) }
            stop(process)
            // "<6>sim +4.23s buzzer on"
            let rises: [Double] = (try String(contentsOfFile: log, encoding: .utf8)).split(separator: "\n").compactMap {
                line in
                guard line.hasPrefix("<6>sim +"), line.hasSuffix(" buzzer on") else { return nil }
                return Double(line.dropFirst("<6>sim +".count).prefix { $0 != "s" })
            }
            return try pressTimes.map { press in
                let release = press + 0.2
                guard let rise = rises.first(where: { $0 >= release }), rise < release + 1.8 else {
                    throw Failure(description: "no cue after the press at \(press) s")
                }
                return (rise - release) * 1000
            }
        }
    }
}
