import Appliance
import Foundation
import GPIO
import LinuxSystem
import ServiceSupport

/// The journal and the service manager.
final class JournalOutput: DaemonOutput {
    let logger: ServiceLogger
    let notifier: ServiceNotifier
    private var notifyFailed = false

    init(logger: ServiceLogger, notifier: ServiceNotifier) {
        self.logger = logger
        self.notifier = notifier
    }

    func notify(_ states: [ServiceState]) {
        do {
            try notifier.notify(states)
        } catch {
            // Once: a broken socket would otherwise fill the journal every watchdog period.
            if !notifyFailed { logger.warning("service manager notification failed: \(error)") }
            notifyFailed = true
        }
    }

    func log(_ level: LogLevel, _ message: String) {
        logger.log(level, message)
    }
}

/// The control socket's server as the daemon's request mailbox.
final class ControlServerRequests: ControlRequestSource {
    let server: ControlServer
    let logger: ServiceLogger

    init(server: ControlServer, logger: ServiceLogger) {
        self.server = server
        self.logger = logger
    }

    var pollDescriptors: [PollDescriptor] { server.pollDescriptors }

    var nanosecondsUntilDeadline: UInt64? {
        server.nextDeadlineNanoseconds.map { $0 - min($0, server.nowNanoseconds) }
    }

    func takeRequests() -> [PendingControlRequest] {
        let received: [ControlServer.Received]
        do {
            received = try server.receive()
        } catch {
            logger.warning("control socket: \(error)")
            return []
        }
        return received.map { item in
            PendingControlRequest(request: item.request) { [server] reply in _ = server.reply(reply, to: item.id) }
        }
    }
}

/// Presses typed on standard input for `--simulate` without `--press-at`: Enter is a short press,
/// `long` a long one.
enum StandardInputPresses {
    static func start(chip: SimulatedGPIO, logger: ServiceLogger) {
        logger.notice("simulation: press Enter for a short press, type 'long' for a long press")
        let thread = Thread {
            while let line = readLine() {
                let seconds = Double(chip.elapsedNanoseconds) / 1e9
                let long = line.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("l")
                chip.schedule(ScriptedPress(atSeconds: seconds + 0.05, holdSeconds: long ? 2 : 0.2))
            }
        }
        thread.start()
    }
}
