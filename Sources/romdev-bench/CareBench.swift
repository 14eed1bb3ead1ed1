import Care
import CareStorage
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Care store figures: `romdev today` wall time on a store holding five years of the Recover plan
/// plus ten daily tasks with an outcome on every event, the same query in process, outcome insert
/// latency with synchronous=FULL, and how the day's query scales with history.
///
/// `--romdev PATH` names the `romdev` binary to time as a process (the Makefile passes the release
/// build); without it only in-process figures are printed.
enum CareBench {
    static func run() {
        print("== care store ==")
        // Wall times depend on what else runs; the load puts them in context.
        if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").first {
            print("host load average (1 min): \(load) on \(ProcessInfo.processInfo.activeProcessorCount) CPUs")
        }
        let arguments = CommandLine.arguments
        let romdev = arguments.firstIndex(of: "--romdev").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "romdev-care-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try measure(in: directory, romdev: romdev)
        } catch {
            print("care bench failed: \(error)")
        }
    }

    private static let runs = 30
    private static let zone = TimeZone.current

    private static func measure(in directory: URL, romdev: String?) throws {
        let now = Date()
        var fiveYearStore: CareStore?
        var scaling: [(label: String, query: Summary, process: ProcessTimes?)] = []
        for (label, days) in [("1 month", 30), ("1 year", 365), ("5 years", 5 * 365 + 1)] {
            let path = directory.appendingPathComponent("care-\(days)d.sqlite").path
            let clock = ContinuousClock()
            var store: CareStore?
            let buildTime = try clock.measure { store = try build(path: path, days: days, now: now) }
            guard let store else { continue }
            let outcomes = try store.fetchOutcomes().count
            let size = [path, path + "-wal"].compactMap {
                try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int
            }.reduce(0, +)
            print(
                String(
                    format:
                        "store %@: %d days of the Recover plan + 10 daily tasks, %d outcomes, %.1f MB (built in %.1f s)",
                    label, days, outcomes, Double(size) / 1e6, seconds(buildTime)))
            let query = Summary(try (0..<runs).map { _ in try clock.measure { try today(path: path, now: now) } })
            var process: ProcessTimes?
            if let romdev {
                do {
                    process = try timeProcess(romdev: romdev, store: path)
                } catch {
                    print("romdev today not timed: \(error)")
                }
            }
            scaling.append((label, query, process))
            if days > 365 { fiveYearStore = store }
        }

        if let romdev,
            let floor = try? timeProcess(
                romdev: romdev, store: directory.appendingPathComponent("none.sqlite").path,
                arguments: ["--version"])
        {
            print("process start floor, romdev --version (\(runs) runs): \(floor.text)")
        }
        if let five = scaling.last {
            if let process = five.process {
                print("romdev today, 5 years, whole process (\(runs) runs): \(process.text) (target < 20 ms)")
            } else {
                print("romdev today: not timed (pass --romdev PATH to a romdev that has `today`)")
            }
            print(
                "today's query in process, 5 years (open store + onboarding + day's tasks + events + adherence, \(runs) runs):"
                    + " median \(five.query.medianText), p95 \(five.query.p95Text)")
        }
        if let store = fiveYearStore, let romdev {
            do {
                let report = try timeProcess(romdev: romdev, store: store.path, arguments: ["report"], runs: 10)
                let size = (try? FileManager.default.attributesOfItem(atPath: report.outputPath)[.size] as? Int) ?? 0
                print(
                    "romdev report, 5 years (plan start to today, \(String(format: "%.1f", Double(size) / 1e6)) MB page), whole process"
                        + " (\(report.wall.count) runs): \(report.text); peak RSS \(report.peakText) (target < 200 ms, < 50 MB)"
                )
            } catch {
                print("romdev report not timed: \(error)")
            }
        }
        if let store = fiveYearStore {
            try printBreakdown(store: store, now: now)
            let inserts = try insertLatencies(store: store, now: now)
            print(
                "outcome insert, synchronous=FULL, one transaction each (\(inserts.count) inserts, 5-year store):"
                    + " median \(inserts.medianText), p95 \(inserts.p95Text)")
        }
        print("today's query by history length (medians of \(runs); in process / romdev today wall / its CPU):")
        for row in scaling {
            print(
                "  \(row.label.padding(toLength: 8, withPad: " ", startingAt: 0))  \(row.query.medianText)"
                    + (row.process.map { " / \($0.wall.medianText) / \($0.cpu.medianText)" } ?? ""))
        }
    }

    /// A store whose Recover plan started `days` days before `now`'s day, with ten extra daily
    /// tasks, and an outcome on every event that started before `now`.
    private static func build(path: String, days: Int, now: Date) throws -> CareStore {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.date(byAdding: .day, value: -days, to: calendar.startOfDay(for: now)) ?? now
        let store = try CareStore(path: path, timeZone: zone)
        _ = try store.seedRecoverPlan(start: start, limb: .left, timeZone: zone, now: start)
        try store.addTasks(
            try (1...10).map { number in
                CareTask(
                    id: "exercise-\(number)", title: "Exercise \(number)",
                    schedule: try .dailyAtTime(hour: 8 + number, minutes: 0, start: start, calendar: calendar),
                    createdDate: start)
            })
        let events = try store.fetchEvents(from: start, to: now).filter { $0.scheduleEvent.start < now }
        // Batches of a few hundred keep the build quick; the onboarding event comes first by start.
        for batchStart in stride(from: 0, to: events.count, by: 500) {
            let batch = events[batchStart..<min(batchStart + 500, events.count)]
            let recorded = batch.last?.scheduleEvent.start ?? start
            try store.addOutcomes(
                batch.map { event in
                    NewOutcome(
                        taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence,
                        values: values(for: event.task.id, at: event.scheduleEvent.start))
                }, now: recorded)
        }
        return store
    }

    private static func values(for taskID: String, at date: Date) -> [OutcomeValue] {
        switch taskID {
        case RecoverCarePlan.TaskID.onboarding:
            [OutcomeValue(.date(date), kind: "consent", createdDate: date)]
        case RecoverCarePlan.TaskID.checkin:
            [
                OutcomeValue(.integer(3), kind: RecoverCarePlan.Kind.pain, createdDate: date),
                OutcomeValue(
                    .double(7), kind: RecoverCarePlan.Kind.sleep, units: RecoverCarePlan.sleepUnits, createdDate: date),
            ]
        case RecoverCarePlan.TaskID.rangeOfMotionCheck:
            RecoverCarePlan.rangeOfMotionValues(
                startDegrees: 0, finishDegrees: 2, minimumDegrees: 0, maximumDegrees: 85,
                createdDate: date)
        default:
            [OutcomeValue(.integer(1), createdDate: date)]
        }
    }

    /// What `romdev today` reads, from a cold open: whether onboarding is done, the day's tasks
    /// (with events), their events and outcomes, and the day's adherence.
    private static func today(path: String, now: Date) throws {
        let store = try CareStore(path: path, timeZone: zone)
        let day = store.calendar.dayInterval(containing: now)
        _ = try store.isOnboardingPending()
        let tasks = try store.fetchTasks(TaskQuery(dateInterval: day, excludesTasksWithNoEvents: true))
        let events = try store.fetchEvents(taskIDs: tasks.map(\.id), from: day.start, to: day.end)
        let adherence = try store.fetchAdherence(from: day.start, to: day.end)
        precondition(!events.isEmpty && adherence.count == 1, "the bench store has events today")
    }

    /// The day's query step by step on an open store (medians of `runs`), to see where time goes.
    private static func printBreakdown(store: CareStore, now: Date) throws {
        let clock = ContinuousClock()
        let day = store.calendar.dayInterval(containing: now)
        var tasks: [CareTask] = []
        let steps: [(String, () throws -> Void)] = [
            ("open", { _ = try CareStore(path: store.path, timeZone: zone) }),
            ("onboarding", { _ = try store.isOnboardingPending() }),
            ("tasks", { tasks = try store.fetchTasks(TaskQuery(dateInterval: day, excludesTasksWithNoEvents: true)) }),
            ("events", { _ = try store.fetchEvents(taskIDs: tasks.map(\.id), from: day.start, to: day.end) }),
            ("adherence", { _ = try store.fetchAdherence(from: day.start, to: day.end) }),
        ]
        let medians = try steps.map { name, step in
            (name, Summary(try (0..<runs).map { _ in try clock.measure(step) }).medianText)
        }
        print("  by step, 5 years, open store (medians): " + medians.map { "\($0) \($1)" }.joined(separator: ", "))
    }

    /// Wall and CPU (user + system) times of a child process, and its largest resident set.
    private struct ProcessTimes {
        let wall: Summary
        let cpu: Summary
        /// The peak resident set of one run, in bytes.
        let peakResidentBytes: Int
        /// Where the last run's standard output went.
        let outputPath: String

        var text: String {
            "wall median \(wall.medianText), p95 \(wall.p95Text); CPU median \(cpu.medianText)"
        }

        var peakText: String { String(format: "%.1f MB", Double(peakResidentBytes) / 1e6) }
    }

    /// Times `romdev today` on `store` from spawn to exit. Uses posix_spawn rather than
    /// Foundation's Process, whose own overhead (tens of milliseconds here) would swamp the figure.
    private static func timeProcess(
        romdev: String, store: String, arguments: [String] = ["today"], runs: Int = CareBench.runs
    ) throws -> ProcessTimes {
        let clock = ContinuousClock()
        let output = (store as NSString).deletingLastPathComponent + "/\(arguments[0]).out"
        var environment = ProcessInfo.processInfo.environment
        environment["ROMDEV_STORE"] = store
        var walls: [Duration] = []
        var cpus: [Duration] = []
        for _ in 0..<runs {
            var result: (status: Int32, cpu: Duration, maxRSS: Int) = (-1, .zero, 0)
            let wall = clock.measure {
                result = spawnAndWait(romdev, arguments, environment: environment, stdout: output)
            }
            let printed = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            guard result.status == 0, printed > 0 else {
                throw BenchError(
                    message: "ROMDEV_STORE=\(store) \(romdev) \(arguments.joined(separator: " "))"
                        + " exited with status \(result.status)" + (printed == 0 ? " and printed nothing" : ""))
            }
            walls.append(wall)
            cpus.append(result.cpu)
        }
        // The child's own ru_maxrss would count this process's resident set: Linux keeps the
        // high-water mark of the memory a process replaces at exec, and a spawned child starts on
        // ours. A fresh small process in between spawns the measured one and reports its peak.
        let probed = (store as NSString).deletingLastPathComponent + "/peak-resident.out"
        let probe = spawnAndWait(
            "/proc/self/exe", [peakResidentProbeOption, output, romdev] + arguments, environment: environment,
            stdout: probed)
        guard probe.status == 0,
            let peak = (try? String(contentsOfFile: probed, encoding: .utf8))
                .flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        else {
            throw BenchError(
                message: "the peak resident set of \(romdev) \(arguments.joined(separator: " ")) was not measured")
        }
        return ProcessTimes(wall: Summary(walls), cpu: Summary(cpus), peakResidentBytes: peak, outputPath: output)
    }

    /// `romdev-bench --peak-resident OUTPUT PATH ARGUMENTS…`: runs PATH with its standard output to
    /// OUTPUT and prints its peak resident set in bytes; exits non-zero when it failed.
    static let peakResidentProbeOption = "--peak-resident"

    static func peakResidentProbe(_ arguments: [String]) -> Never {
        guard arguments.count >= 2 else { exit(64) }
        let result = spawnAndWait(
            arguments[1], Array(arguments.dropFirst(2)), environment: ProcessInfo.processInfo.environment,
            stdout: arguments[0])
        guard result.status == 0 else { exit(1) }
        print(result.maxRSS)
        exit(0)
    }

    /// Runs `path` with `arguments`, stdout to the file `stdout`, stderr to /dev/null. Returns the
    /// raw wait status (0 for a clean exit 0; -1 when it could not be started), the child's
    /// CPU time, which unlike wall time does not count waiting for a busy machine's CPUs, and its
    /// peak resident set in bytes (`ru_maxrss`, which Linux counts in kilobytes, and which includes
    /// the spawning process's own peak: see ``peakResidentProbe(_:)``).
    private static func spawnAndWait(
        _ path: String, _ arguments: [String], environment: [String: String], stdout: String
    ) -> (status: Int32, cpu: Duration, maxRSS: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return (-1, .zero, 0) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        func duration(_ time: timeval) -> Duration { .seconds(time.tv_sec) + .microseconds(time.tv_usec) }
        return (status, duration(usage.ru_utime) + duration(usage.ru_stime), usage.ru_maxrss * 1024)
    }

    /// One outcome per transaction, on the extra tasks' events after `now` (the history has all
    /// earlier events recorded).
    private static func insertLatencies(store: CareStore, now: Date) throws -> Summary {
        let later = try store.fetchEvents(
            taskIDs: (1...10).map { "exercise-\($0)" }, from: now,
            to: now.addingTimeInterval(30 * 86_400)
        )
        .filter { $0.outcome == nil && $0.scheduleEvent.start >= now }
        .prefix(200)
        let clock = ContinuousClock()
        return Summary(
            try later.map { event in
                try clock.measure {
                    try store.addOutcome(
                        NewOutcome(
                            taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence,
                            values: values(for: event.task.id, at: now)), now: now)
                }
            })
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Median and 95th percentile (nearest rank) of a set of durations.
    private struct Summary {
        let median: Double
        let p95: Double
        let count: Int

        init(_ durations: [Duration]) {
            let sorted = durations.map(CareBench.seconds).sorted()
            count = sorted.count
            median = sorted.isEmpty ? .nan : sorted[(sorted.count - 1) / 2]
            p95 =
                sorted.isEmpty
                ? .nan : sorted[min(sorted.count - 1, Int((0.95 * Double(sorted.count)).rounded(.up)) - 1)]
        }

        var medianText: String { String(format: "%.2f ms", median * 1000) }
        var p95Text: String { String(format: "%.2f ms", p95 * 1000) }
    }

    private struct BenchError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
