import Appliance
import Care
import CareStorage
import Foundation
import Fusion
import GPIO
import LinuxSystem
import Sensor
import ServiceSupport
import Synchronization
import TestSupport

/// Records what the daemon tells the service manager and the journal.
final class RecordingOutput: DaemonOutput, @unchecked Sendable {
    private let lock = NSLock()
    private var _states: [ServiceState] = []
    private var _logs: [(LogLevel, String)] = []

    func notify(_ states: [ServiceState]) {
        lock.withLock { _states += states }
    }

    func log(_ level: LogLevel, _ message: String) {
        lock.withLock { _logs.append((level, message)) }
    }

    var states: [ServiceState] { lock.withLock { _states } }
    var logs: [(LogLevel, String)] { lock.withLock { _logs } }
    var messages: [String] { logs.map(\.1) }

    func messages(containing text: String) -> [String] {
        messages.filter { $0.contains(text) }
    }
}

/// A sensor probe whose answer the test sets.
final class FakeSensorProbe: SensorProbe {
    var currentProblem: MPU6050Error?
    var probes = 0
    let location = "/dev/i2c-1 at 0x68"

    init(problem: MPU6050Error? = nil) {
        currentProblem = problem
    }

    func check() throws(MPU6050Error) {
        probes += 1
        if let currentProblem { throw currentProblem }
    }
}

/// A measurement that plays a script on the daemon's monotonic clock.
final class ScriptedMeasurement: GuidedRun {
    private var script: EventScript<GuidedMeasurementEvent>
    private(set) var stopped = false
    private(set) var aborted = false

    init(clock: any GPIOClock, script: [(seconds: Double, event: GuidedMeasurementEvent)]) {
        self.script = EventScript(clock: clock, script: script)
    }

    func takeEvents() -> [GuidedMeasurementEvent] {
        if aborted {
            script.clear()
            aborted = false
            return [.aborted]
        }
        return script.takeDue()
    }

    func stop() {
        stopped = true
    }

    func abort() {
        aborted = true
    }
}

/// Starts scripted measurements, one script per session in turn.
final class ScriptedMeasurements: GuidedMeasurementStarter {
    let clock: any GPIOClock
    var scripts: [[(seconds: Double, event: GuidedMeasurementEvent)]]
    private(set) var started: [ScriptedMeasurement] = []
    /// The protocol each start asked for.
    private(set) var protocols: [MeasurementProtocol] = []

    init(clock: any GPIOClock, scripts: [[(seconds: Double, event: GuidedMeasurementEvent)]]) {
        self.clock = clock
        self.scripts = scripts
    }

    func startMeasurement(_ measurementProtocol: MeasurementProtocol) throws(MPU6050Error) -> any GuidedRun<
        GuidedMeasurementEvent
    > {
        protocols.append(measurementProtocol)
        let script = scripts.isEmpty ? Self.success() : scripts.removeFirst()
        let measurement = ScriptedMeasurement(clock: clock, script: script)
        started.append(measurement)
        return measurement
    }

    static let result = RangeOfMotionResult(start: 2, finish: 3, minimum: 1, maximum: 74)

    /// Hold still, go after 2 s, moving, a result after 10 s.
    static func success(_ result: RangeOfMotionResult = result) -> [(seconds: Double, event: GuidedMeasurementEvent)] {
        [(0, .holdStill), (2, .go), (3, .moving), (10, .finished(result))]
    }
}

/// Control requests queued by the test, replies recorded. Like the socket, it wakes the loop: an
/// alarm of the daemon's clock becomes readable when the next request is due.
final class QueuedRequests: ControlRequestSource {
    private var queue: [(at: Date, request: ControlRequest)] = []
    private(set) var replies: [(ControlRequest, ControlReply)] = []
    let wallClock: any WallClock
    private let clock: any GPIOClock
    private let alarm: any ClockAlarm

    init(wallClock: any WallClock, clock: any GPIOClock) throws {
        self.wallClock = wallClock
        self.clock = clock
        alarm = try clock.makeAlarm()
    }

    func send(_ request: ControlRequest, at date: Date) {
        queue.append((date, request))
        rearm()
    }

    var pollDescriptors: [PollDescriptor] { [PollDescriptor(alarm.descriptor, .readable)] }
    var nanosecondsUntilDeadline: UInt64? { nil }

    func takeRequests() -> [PendingControlRequest] {
        let now = wallClock.now
        let due = queue.filter { $0.at <= now }
        queue.removeAll { $0.at <= now }
        rearm()
        return due.map { item in
            PendingControlRequest(request: item.request) { [self] reply in replies.append((item.request, reply)) }
        }
    }

    /// Sets the alarm to the next request's time on the daemon's clock.
    private func rearm() {
        guard let next = queue.map(\.at).min() else {
            try? alarm.clear()
            return
        }
        let seconds = max(0, next.timeIntervalSince(wallClock.now))
        try? alarm.set(atNanoseconds: clock.nowNanoseconds + UInt64((seconds * 1e9).rounded(.up)))
    }
}

/// A daemon on the simulated GPIO chip, a manual clock and a real care store in a temporary
/// directory, run until a condition holds.
final class DaemonHarness {
    let directory: TemporaryDirectory
    let store: CareStore
    let calendar: Calendar
    let clock = ManualGPIOClock(startNanoseconds: 1_000_000_000)
    let wallClock: SimulatedWallClock
    let chip: SimulatedGPIO
    let output = RecordingOutput()
    let sensor: FakeSensorProbe
    let measurements: ScriptedMeasurements
    let requests: QueuedRequests
    var configuration = ApplianceConfiguration()
    var timing = DaemonTiming(
        busyPollNanoseconds: 5_000_000_000, storeRefreshNanoseconds: 600_000_000_000,
        sensorRetryNanoseconds: 10_000_000_000, faultCueNanoseconds: 15_000_000_000)
    var synchronized = true
    var watchdog: ServiceWatchdog?
    var exitAfter: Int?
    /// Called on every loop turn with the wall time (to act mid-run: onboard, step the clock).
    var onTurn: (Date) -> Void = { _ in }
    /// The measurements the daemon starts (scripted unless a test puts the simulator here).
    var starter: (any GuidedMeasurementStarter)?
    /// Calibrations the daemon may run; nil refuses them.
    var calibrations: (any GuidedCalibrationStarter)?
    let start: Date
    /// Wall times of the buzzer's rising edges.
    private let buzzerOnTimes = DateLog()
    private let outcomeProbe: OutcomeProbe

    /// - Parameters:
    ///   - start: The wall time the daemon starts at.
    ///   - planStart: The care plan's first day (nil: no plan).
    ///   - onboarded: Whether onboarding is done (at the plan start).
    init(
        zone: String = "America/Los_Angeles", start: (Calendar) -> Date, planStart: ((Calendar) -> Date)?,
        onboarded: Bool = true, presses: [ScriptedPress] = [], sensorProblem: MPU6050Error? = nil,
        scripts: [[(seconds: Double, event: GuidedMeasurementEvent)]] = []
    ) throws {
        directory = try TemporaryDirectory()
        let calendar = Zones.calendar(zone)
        self.calendar = calendar
        store = try CareStore(path: directory.path("care.sqlite"), timeZone: calendar.timeZone)
        self.start = start(calendar)
        wallClock = SimulatedWallClock(start: self.start, monotonic: clock)
        sensor = FakeSensorProbe(problem: sensorProblem)
        measurements = ScriptedMeasurements(clock: clock, scripts: scripts)
        requests = try QueuedRequests(wallClock: wallClock, clock: clock)
        let startWall = self.start
        let clock = clock
        let buzzerOnTimes = buzzerOnTimes
        let probe = OutcomeProbe()
        outcomeProbe = probe
        chip = SimulatedGPIO(clock: clock, presses: presses) { change in
            if change.line.name == "GPIO22", change.value {
                let wall = startWall.addingTimeInterval(Double(change.atNanoseconds) / 1e9)
                buzzerOnTimes.append(wall)
                probe.check(at: wall)
            }
        }
        probe.store = store
        if let planStart {
            let first = planStart(calendar)
            _ = try store.seedRecoverPlan(start: first, limb: .left, timeZone: calendar.timeZone, now: first)
            if onboarded { try onboard(at: first.addingTimeInterval(60)) }
        }
    }

    func onboard(at date: Date) throws {
        let day = calendar.dayInterval(containing: date)
        let event = try store.fetchEvents(taskID: RecoverCarePlan.TaskID.onboarding, from: day.start, to: day.end)[0]
        try store.addOutcome(
            NewOutcome(
                taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence,
                values: [OutcomeValue(.text("Test"), kind: "onboarding.consent.by", createdDate: date)]),
            now: date)
    }

    /// How many times the daemon's loop woke in the last ``run(until:stopWhen:)``.
    private(set) var wakeCount = 0

    /// Runs the daemon until the wall clock reaches `end` or `stopWhen` holds (as a stop signal,
    /// which an alarm at `end` delivers like the signal descriptor does; `stopWhen` is looked at
    /// on every wake).
    func run(until end: Date, stopWhen: @escaping (Date) -> Bool = { _ in false }) throws {
        let stopAlarm = try clock.makeAlarm()
        try stopAlarm.set(
            atNanoseconds: clock.nowNanoseconds
                + UInt64((max(0, end.timeIntervalSince(wallClock.now)) * 1e9).rounded(.up)))
        var lines = configuration.gpio
        lines.chip = .path(chip.info.path)
        let panel = try ControlPanel(
            configuration: lines,
            locator: GPIOLineLocator(directory: "/nonexistent") { [chip] _ throws(GPIOError) in chip }, clock: clock)
        let wallClock = wallClock
        let onTurn = onTurn
        let daemon = ApplianceDaemon(
            parts: ApplianceDaemon.Parts(
                store: store, panel: panel, monotonic: clock, wallClock: wallClock, sensor: sensor,
                measurements: starter ?? measurements, output: output,
                clockSynchronized: { [unowned self] in synchronized },
                stopRequested: {
                    let now = wallClock.now
                    onTurn(now)
                    return now >= end || stopWhen(now)
                },
                signalDescriptor: stopAlarm.descriptor, requests: requests, calibrations: calibrations),
            settings: ApplianceDaemon.Settings(
                configuration: configuration, timing: timing, watchdog: watchdog, exitAfterMeasurements: exitAfter))
        var problem: MPU6050Error?
        do { try sensor.check() } catch { problem = error }
        try daemon.run(sensorProblem: problem)
        wakeCount = daemon.wakeCount
    }

    /// Wall times at which a chime began: rising buzzer edges more than 1 s after the previous.
    var chimeStarts: [Date] {
        var starts: [Date] = []
        var last: Date?
        for time in buzzerOnTimes.dates {
            if last.map({ time.timeIntervalSince($0) > 1 }) ?? true { starts.append(time) }
            last = time
        }
        return starts
    }

    /// Range-of-motion outcomes in the store when each chime began (wall time, count).
    var outcomesAtChimeStarts: [(Date, Int)] {
        let starts = Set(chimeStarts)
        return outcomeProbe.counts.filter { starts.contains($0.0) }
    }

    /// The range-of-motion outcomes stored.
    func rangeOfMotionOutcomes() throws -> [StoredOutcome] {
        try store.fetchOutcomes(OutcomeQuery(taskIDs: [RecoverCarePlan.TaskID.rangeOfMotionCheck]))
    }

    /// The local instant of a wall time in the harness's zone.
    func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        calendar.local(year, month, day, hour, minute, second)
    }
}

/// Dates appended from any thread.
final class DateLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Date] = []

    func append(_ date: Date) {
        lock.withLock { stored.append(date) }
    }

    var dates: [Date] { lock.withLock { stored } }
}

/// Counts the stored range-of-motion outcomes when the buzzer starts a tone.
final class OutcomeProbe: @unchecked Sendable {
    var store: CareStore?
    private let lock = NSLock()
    private var stored: [(Date, Int)] = []

    func check(at wall: Date) {
        let count =
            (try? store?.fetchOutcomes(OutcomeQuery(taskIDs: [RecoverCarePlan.TaskID.rangeOfMotionCheck])).count) ?? -1
        lock.withLock { stored.append((wall, count)) }
    }

    var counts: [(Date, Int)] { lock.withLock { stored } }
}

/// A calibration that plays a script on the daemon's monotonic clock.
final class ScriptedCalibration: GuidedRun {
    private var script: EventScript<GuidedCalibrationEvent>
    private var aborted = false

    init(clock: any GPIOClock, script: [(seconds: Double, event: GuidedCalibrationEvent)]) {
        self.script = EventScript(clock: clock, script: script)
    }

    func takeEvents() -> [GuidedCalibrationEvent] {
        if aborted {
            script.clear()
            aborted = false
            return [.aborted]
        }
        return script.takeDue()
    }

    func stop() {}

    func abort() {
        aborted = true
    }
}

/// Starts scripted calibrations.
final class ScriptedCalibrations: GuidedCalibrationStarter {
    let clock: any GPIOClock
    let script: [(seconds: Double, event: GuidedCalibrationEvent)]
    private(set) var started = 0

    init(clock: any GPIOClock, script: [(seconds: Double, event: GuidedCalibrationEvent)]) {
        self.clock = clock
        self.script = script
    }

    func startCalibration() throws(MPU6050Error) -> any GuidedRun<GuidedCalibrationEvent> {
        started += 1
        return ScriptedCalibration(clock: clock, script: script)
    }
}

/// Events at given seconds after creation on the daemon's monotonic clock, handed out once due:
/// what the scripted measurement and calibration play.
struct EventScript<Event> {
    private let clock: any GPIOClock
    private var events: [(at: UInt64, event: Event)]

    init(clock: any GPIOClock, script: [(seconds: Double, event: Event)]) {
        self.clock = clock
        let start = clock.nowNanoseconds
        events = script.map { (start + UInt64($0.seconds * 1e9), $0.event) }
    }

    /// The events due by now, in order; each is handed out once.
    mutating func takeDue() -> [Event] {
        let now = clock.nowNanoseconds
        let due = events.prefix { $0.at <= now }
        events.removeFirst(due.count)
        return due.map(\.event)
    }

    /// Drops the events not yet due.
    mutating func clear() {
        events.removeAll()
    }
}
