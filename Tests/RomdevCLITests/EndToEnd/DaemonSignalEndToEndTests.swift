import Foundation
import ServiceSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What each signal, and a missing GPIO line, does to `romdev daemon --simulate`. Every step
/// waits for the daemon to say it is ready (notify protocol) or to answer on its socket, never
/// for a while.
@Suite(.serialized) struct DaemonSignalEndToEndTests {
    typealias Device = DaemonEndToEndTests.Device

    @Test func signalsWithoutAMeaningAreIgnoredAndSIGQUITStopsCleanly() throws {
        let device = try Device()
        try device.start(["--start-at", device.tomorrowAt("10:00:00"), "--press-at", "100000s"])
        #expect(device.notify.waitFor("READY=1") != nil)
        for signal in [SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE] { device.signal(signal) }
        // Each of these, left to its default, ends the process inside kill(2); answering a
        // request afterwards shows it was ignored.
        let socket = ControlSocketLocation.path(environment: device.environment)
        let reply = try ControlClient(path: socket).send(.status)
        #expect(reply.status == .ok, "\(reply)")
        device.signal(SIGQUIT)
        #expect(device.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(device.log.hasSuffix("<5>stopped\n"), "\(device.log)")
        #expect(device.notify.datagrams().flatMap { $0 }.last == "STOPPING=1")
        let led = device.log.split(separator: "\n").last { $0.hasPrefix("<6>sim ") && $0.contains(" LED ") }
        #expect(led.map { $0.hasSuffix(" off") } ?? true)
    }

    @Test func sighupReloadsTheReminderTimesAndKeepsThemWhenTheFileIsBad() throws {
        let device = try Device()
        let config = device.directory.path + "/romdev.conf"
        try "reminder_first = 10:30\n".write(toFile: config, atomically: true, encoding: .utf8)
        try device.start(["--config", config, "--start-at", device.tomorrowAt("10:00:00"), "--press-at", "100000s"])
        let ready = try #require(device.notify.waitFor("READY=1"))
        #expect(
            device.notify.datagrams().flatMap { $0 }.contains {
                $0.hasPrefix("STATUS=") && $0.contains("next reminder 10:30")
            })

        /// Writes `text` to the file, sends SIGHUP and waits for RELOADING=1, then READY=1 after
        /// the assignments already seen; returns the count seen then and the status that followed.
        func reload(_ text: String, after seen: Int) throws -> (seen: Int, status: String?) {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            device.signal(SIGHUP)
            let reloading = try #require(device.notify.waitFor("RELOADING=1", skipping: seen))
            let ready = try #require(device.notify.waitFor("READY=1", skipping: reloading))
            return (ready, device.notify.datagrams().flatMap { $0 }[ready...].first { $0.hasPrefix("STATUS=") })
        }
        let reloaded = try reload("reminder_first = 10:45\ni2c_bus = /dev/i2c-7\n", after: ready)
        #expect(reloaded.status?.contains("next reminder 10:45") == true, "\(reloaded.status ?? "")")
        #expect(device.log.contains("<5>configuration reloaded; i2c_bus change at the next restart\n"))

        let refused = try reload("reminder_first = 25:00\n", after: reloaded.seen)
        #expect(refused.status?.contains("next reminder 10:45") == true, "\(refused.status ?? "")")
        #expect(device.log.contains("<3>configuration not reloaded, the running one stays: "))

        device.signal(SIGTERM)
        #expect(device.wait() == 0)
    }

    @Test func aMissingGPIOLineKeepsTheDaemonRunningAndNamesTheLine() throws {
        let device = try Device()
        let config = device.directory.path + "/romdev.conf"
        try "button = GPIO99\n".write(toFile: config, atomically: true, encoding: .utf8)
        try device.start(["--config", config, "--start-at", device.tomorrowAt("10:00:00")])
        #expect(device.notify.waitFor("READY=1") != nil)
        let status = device.notify.datagrams().flatMap { $0 }.first { $0.hasPrefix("STATUS=") }
        #expect(
            status?.hasPrefix("STATUS=no button, LED or buzzer (no GPIO line named 'GPIO99' on ") == true,
            "\(status ?? "")")
        let socket = ControlSocketLocation.path(environment: device.environment)
        let reply = try ControlClient(path: socket).send(.status)
        #expect(reply.status == .ok)
        #expect(reply.message.contains("no GPIO line named 'GPIO99'"), "\(reply.message)")
        device.signal(SIGTERM)
        #expect(device.wait() == 0)
        #expect(device.log.contains("<3>no button, LED or buzzer: no GPIO line named 'GPIO99'"))
    }
}
