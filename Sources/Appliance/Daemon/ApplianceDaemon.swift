import CareStorage
import Foundation
import GPIO
import LinuxSystem
import Sensor
import ServiceSupport

/// The appliance's working loop: one thread that waits in one `poll(2)` on the button's edge
/// events, the control socket, the stop and reload signals and an alarm set for the next thing
/// due (a cue step, a reminder, the day's end, a store refresh, the watchdog), and on every wake
/// reads the wall clock afresh, keeps the LED and the reminder chime in step with the day's care
/// status, drives a guided measurement, serves control requests and pings the watchdog.
///
/// Every dependency is injected (clocks, store, controls, sensor, measurements, output), so tests
/// run whole days on manual clocks and the simulator.
public final class ApplianceDaemon {
    /// Everything the loop works with.
    public struct Parts {
        public var store: CareStore
        /// The button, LED and buzzer; nil when their lines could not be requested (the daemon
        /// then runs without them and says so in its status).
        public var panel: ControlPanel?
        /// The panel's clock: button edges, cues, and the loop's waits.
        public var monotonic: any GPIOClock
        public var wallClock: any WallClock
        public var sensor: any SensorProbe
        public var measurements: any GuidedMeasurementStarter
        public var output: any DaemonOutput
        /// Whether NTP synchronised the clock since boot.
        public var clockSynchronized: () -> Bool
        /// Whether a stop signal (SIGTERM, SIGINT, SIGQUIT) arrived.
        public var stopRequested: () -> Bool
        /// Readable when a stop or reload signal is pending (the signal watcher's descriptor);
        /// nil when nothing signals the loop.
        public var signalDescriptor: CInt?
        /// Whether a reload (SIGHUP) was asked for since the last call.
        public var reloadRequested: () -> Bool
        /// Reads the configuration file again; nil when there is none to read (tests).
        public var loadConfiguration: (() throws -> ApplianceConfiguration)?
        public var requests: (any ControlRequestSource)?
        /// Calibrations asked for over the control socket; nil refuses them.
        public var calibrations: (any GuidedCalibrationStarter)?

        public init(
            store: CareStore, panel: ControlPanel?, monotonic: any GPIOClock, wallClock: any WallClock,
            sensor: any SensorProbe, measurements: any GuidedMeasurementStarter, output: any DaemonOutput,
            clockSynchronized: @escaping () -> Bool, stopRequested: @escaping () -> Bool,
            reloadRequested: @escaping () -> Bool = { false }, signalDescriptor: CInt? = nil,
            loadConfiguration: (() throws -> ApplianceConfiguration)? = nil,
            requests: (any ControlRequestSource)? = nil, calibrations: (any GuidedCalibrationStarter)? = nil
        ) {
            self.store = store
            self.panel = panel
            self.monotonic = monotonic
            self.wallClock = wallClock
            self.sensor = sensor
            self.measurements = measurements
            self.output = output
            self.clockSynchronized = clockSynchronized
            self.stopRequested = stopRequested
            self.reloadRequested = reloadRequested
            self.signalDescriptor = signalDescriptor
            self.loadConfiguration = loadConfiguration
            self.requests = requests
            self.calibrations = calibrations
        }
    }

    /// How the loop runs.
    public struct Settings {
        public var configuration: ApplianceConfiguration
        public var timing: DaemonTiming
        /// The service manager's watchdog, when enabled.
        public var watchdog: ServiceWatchdog?
        /// Simulation only: stop on its own once this many measurements have ended and their
        /// cues have played.
        public var exitAfterMeasurements: Int?

        public init(
            configuration: ApplianceConfiguration, timing: DaemonTiming = .standard, watchdog: ServiceWatchdog? = nil,
            exitAfterMeasurements: Int? = nil
        ) {
            self.configuration = configuration
            self.timing = timing
            self.watchdog = watchdog
            self.exitAfterMeasurements = exitAfterMeasurements
        }
    }

    let parts: Parts
    /// The running settings; a reload replaces the configuration's live keys.
    var settings: Settings
    var policy: ReminderPolicy
    let reader: CareDayReader

    // Loop state.
    var dayStatus: CareDayStatus = .noCarePlan
    var storeProblem: CareStoreError?
    var trust: ClockTrust = .trusted
    /// Whether `trust` was evaluated yet (the first untrusted finding is logged too).
    var trustKnown = false
    var currentDay: LocalDay?
    var lastRefresh: UInt64?
    var refreshRequested = true
    var lastReminder: Date?
    /// Why the sensor did not answer its last probe, or fails: it is probed again before use.
    var sensorProblem: MPU6050Error?
    /// Why there is no panel (the GPIO lines could not be requested), for the status line.
    var panelProblem: GPIOError?
    var lastSensorProbe: UInt64 = 0
    var lastWatchdogPing: UInt64?
    var shownPattern: LEDPattern?
    /// A pattern shown for a while after an event (a result, a failure), then the day's again.
    var transientPattern: (pattern: LEDPattern, until: UInt64)?
    var session: RunningSession?
    var calibration: RunningCalibration?
    var measurementsEnded = 0
    /// How many times the loop's wait has returned: its wakeups.
    public internal(set) var wakeCount = 0
    var lastStatus: String?
    /// The reminder instants of one local day (of the reminders' calendar), kept for the day.
    var reminderDay: (day: LocalDay, instants: [Date])?

    /// A calibration in progress and the request to answer when it ends.
    struct RunningCalibration {
        let run: any GuidedRun<GuidedCalibrationEvent>
        let request: PendingControlRequest
        var step = "starting"
    }

    /// Whether a measurement or a calibration has the sensor.
    var isBusy: Bool { session != nil || calibration != nil }

    /// A measurement in progress and who asked for it.
    struct RunningSession {
        let measurement: any GuidedRun<GuidedMeasurementEvent>
        /// Where the result goes, found before it started.
        let target: MeasurementTarget
        /// The control request that started it, to be answered at the end; nil for the button.
        let request: PendingControlRequest?
        /// The limb recorded with the result; nil for the care plan's.
        let limb: Limb?
        var phase = "starting"
    }

    public init(parts: Parts, settings: Settings) {
        self.parts = parts
        self.settings = settings
        policy = Self.policy(settings.configuration, store: parts.store)
        reader = CareDayReader(store: parts.store)
    }

    /// The reminder rule of a configuration: its times and quiet hours, in its zone or the store's.
    static func policy(_ configuration: ApplianceConfiguration, store: CareStore) -> ReminderPolicy {
        var calendar = store.calendar
        if let zone = configuration.timeZone { calendar.timeZone = zone }
        return ReminderPolicy(
            reminders: configuration.reminders, quietHours: configuration.quietHours, calendar: calendar)
    }

    var now: UInt64 { parts.monotonic.nowNanoseconds }

    func log(_ level: LogLevel, _ message: String) {
        parts.output.log(level, message)
    }

    /// Runs until a stop signal (or, simulated, the last measurement asked for): sends `READY=1`,
    /// then loops. On the way out the session is aborted without storing anything, `STOPPING=1`
    /// is sent and the LED and buzzer are turned off and released.
    ///
    /// - Parameters:
    ///   - sensorProblem: The start-up probe's finding (nil: the sensor answered).
    ///   - panelProblem: Why the GPIO lines could not be requested, when ``Parts/panel`` is nil.
    ///     The daemon keeps running without button, LED and buzzer (the store, reminders' status
    ///     and the control socket still work) rather than exit and be restarted in a loop: the
    ///     lines do not appear by retrying, and `systemctl status` shows which one is missing.
    /// - Throws: `Errno` when the loop's alarm cannot be created (out of descriptors); nothing
    ///   has started then.
    public func run(sensorProblem initialProblem: MPU6050Error?, panelProblem: GPIOError? = nil) throws(Errno) {
        let alarm = try parts.monotonic.makeAlarm()
        sensorProblem = initialProblem
        self.panelProblem = panelProblem
        if let panelProblem {
            log(
                .error,
                "no button, LED or buzzer: \(panelProblem); check the button, led and buzzer keys of the "
                    + "configuration, that the romdev user is in group gpio, and that no other program holds the lines "
                    + "(gpioinfo); running without them until restarted")
        }
        lastSensorProbe = now
        if let initialProblem {
            log(
                .warning,
                "motion sensor not answering on \(parts.sensor.location): \(initialProblem); retrying every \(settings.timing.sensorRetryNanoseconds / 1_000_000_000) s"
            )
        }
        refresh(at: parts.wallClock.now)
        parts.output.notify([.ready, .status(statusLine(at: parts.wallClock.now))])
        log(.notice, "ready: \(statusLine(at: parts.wallClock.now))")
        lastStatus = statusLine(at: parts.wallClock.now)

        while !parts.stopRequested() {
            turn()
            if let limit = settings.exitAfterMeasurements, measurementsEnded >= limit, !isBusy,
                transientPattern == nil, parts.panel?.cues.currentChime == nil
            {
                log(.notice, "\(limit) measurement\(limit == 1 ? "" : "s") done; stopping as asked")
                break
            }
            wait(untilNanoseconds: nextDeadline(at: parts.wallClock.now), alarm: alarm)
            guard let panel = parts.panel else { continue }
            let events: [ButtonEvent]
            do {
                events = try panel.service()
            } catch {
                log(.error, "button or cue output failed: \(error)")
                // A broken line may poll readable for good: keep a pace instead of a busy loop.
                parts.monotonic.sleep(untilNanoseconds: now + settings.timing.busyPollNanoseconds)
                continue
            }
            for event in events {
                handle(event)
            }
        }
        shutDown()
    }

    /// One wake of the loop: watchdog, store, sensor, session, cues, requests, status.
    func turn() {
        if parts.reloadRequested() { reloadConfiguration() }
        let wall = parts.wallClock.now
        pingWatchdog()
        let day = LocalDay(wall, calendar: parts.store.calendar)
        if day != currentDay || refreshRequested
            || lastRefresh.map({ now - $0 >= settings.timing.storeRefreshNanoseconds }) ?? true
        {
            refresh(at: wall)
        }
        if sensorProblem != nil, !isBusy, now - lastSensorProbe >= settings.timing.sensorRetryNanoseconds {
            probeSensor()
        }
        if session != nil {
            pollSession(at: wall)
        } else if calibration != nil {
            pollCalibration()
        } else {
            soundReminderIfDue(at: wall)
        }
        serveRequests(at: wall)
        updateLED()
        let status = statusLine(at: wall)
        if status != lastStatus {
            lastStatus = status
            parts.output.notify([.status(status)])
        }
    }

    func pingWatchdog() {
        guard let watchdog = settings.watchdog else { return }
        let current = now
        if let last = lastWatchdogPing, current < watchdog.nextPingDue(afterPingAtNanoseconds: last) { return }
        lastWatchdogPing = current
        parts.output.notify([.watchdog])
    }

    /// Aborts a running session (nothing is stored), tells the service manager, turns the cues off.
    func shutDown() {
        parts.output.notify([.stopping])
        if let running = session {
            running.measurement.abort()
            running.request?.reply(.failed("the daemon is stopping; nothing was stored"))
            session = nil
            log(.notice, "measurement aborted by the stop request; nothing stored")
        }
        if let running = calibration {
            running.run.abort()
            running.request.reply(.failed("the daemon is stopping; the calibration was aborted"))
            calibration = nil
            log(.notice, "calibration aborted by the stop request")
        }
        do {
            try parts.panel?.shutDown()
        } catch {
            log(.error, "turning the LED and buzzer off failed: \(error)")
        }
        log(.notice, "stopped")
    }
}
