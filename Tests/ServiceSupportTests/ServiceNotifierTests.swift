import Foundation
import LinuxSystem
import ServiceSupport
import TestSupport
import Testing

@Suite("Service notifier")
struct ServiceNotifierTests {
    @Test func deliversStatesToAPathSocket() throws {
        let directory = try TemporaryDirectory()
        let receiver = try DatagramReceiver(path: directory.path("notify"))
        let notifier = try ServiceNotifier(environment: ["NOTIFY_SOCKET": directory.path("notify")])
        #expect(notifier.isEnabled)
        try notifier.notify(.ready, .status("waiting for the button"))
        #expect(receiver.receive() == "READY=1\nSTATUS=waiting for the button\n")
        try notifier.notify(.watchdog)
        #expect(receiver.receive() == "WATCHDOG=1\n")
    }

    @Test func deliversStatesToAnAbstractSocket() throws {
        let name = "romdev-notify-test-\(UUID().uuidString)"
        let receiver = try DatagramReceiver(abstractName: name)
        let notifier = try ServiceNotifier(environment: ["NOTIFY_SOCKET": "@" + name])
        try notifier.notify(.stopping, .errno(5))
        #expect(receiver.receive() == "STOPPING=1\nERRNO=5\n")
    }

    @Test func abstractNameIsMatchedExactlyNotAsAPrefix() throws {
        // A padded address length would make "@name" and "@name-longer" collide or miss.
        let name = "romdev-notify-exact-\(UUID().uuidString)"
        let receiver = try DatagramReceiver(abstractName: name + "-longer")
        let notifier = try ServiceNotifier(environment: ["NOTIFY_SOCKET": "@" + name])
        #expect(
            throws: NotifyError.system(UnixSocketError(.send, path: "@" + name, errno: Errno(rawValue: ECONNREFUSED)))
        ) {
            try notifier.notify(.ready)
        }
        #expect(receiver.receive() == nil)
    }

    @Test func aReceiverThatDoesNotReadMakesNotifyFailNotWait() throws {
        let directory = try TemporaryDirectory()
        let receiver = try DatagramReceiver(path: directory.path("notify"))
        let notifier = try ServiceNotifier(environment: ["NOTIFY_SOCKET": directory.path("notify")])
        // The receiver's queue holds net.unix.max_dgram_qlen datagrams (512 by default); after
        // that a blocking send would wait for ever.
        var failure: NotifyError?
        for _ in 0..<100_000 where failure == nil {
            do { try notifier.notify(.watchdog) } catch { failure = error }
        }
        #expect(
            failure
                == .system(
                    UnixSocketError(.send, path: directory.path("notify"), errno: .resourceTemporarilyUnavailable)))
        #expect(receiver.receive() == "WATCHDOG=1\n")
    }

    @Test func doesNothingWithoutNotifySocket() throws {
        let notifier = try ServiceNotifier(environment: [:])
        #expect(!notifier.isEnabled)
        try notifier.notify(.ready)
        #expect(try !ServiceNotifier(environment: ["NOTIFY_SOCKET": ""]).isEnabled)
    }

    @Test(arguments: ["relative/notify", "notify", "/" + String(repeating: "x", count: 200)])
    func refusesAnUnusableSocketValue(value: String) {
        #expect(throws: NotifyError.invalidSocket(value)) { try ServiceNotifier(environment: ["NOTIFY_SOCKET": value]) }
    }

    @Test func missingManagerSocketIsReportedWithItsPath() throws {
        let directory = try TemporaryDirectory()
        let notifier = try ServiceNotifier(environment: ["NOTIFY_SOCKET": directory.path("gone")])
        #expect(
            throws: NotifyError.system(
                UnixSocketError(.send, path: directory.path("gone"), errno: .noSuchFileOrDirectory))
        ) {
            try notifier.notify(.ready)
        }
    }

    @Test func statusStaysOneAssignment() {
        #expect(ServiceState.status("IMU missing\non /dev/i2c-1").assignment == "STATUS=IMU missing on /dev/i2c-1")
        #expect(ServiceState.datagram([.ready, .status("a\r\nb")]) == "READY=1\nSTATUS=a b\n")
    }
}

@Suite("Service watchdog")
struct ServiceWatchdogTests {
    @Test func enabledForOurProcessWithHalfIntervalPings() throws {
        let watchdog = try #require(
            ServiceWatchdog(environment: ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "42"], processID: 42))
        #expect(watchdog.timeoutNanoseconds == 10_000_000_000)
        #expect(watchdog.pingIntervalNanoseconds == 5_000_000_000)
        #expect(watchdog.nextPingDue(afterPingAtNanoseconds: 7_000_000_000) == 12_000_000_000)
        #expect(watchdog.nextPingDue(afterPingAtNanoseconds: .max - 1) == .max)
    }

    @Test func enabledWithoutWatchdogPID() {
        #expect(
            ServiceWatchdog(environment: ["WATCHDOG_USEC": "3000000"], processID: 7)?.pingIntervalNanoseconds
                == 1_500_000_000)
    }

    @Test(arguments: [
        [:], ["WATCHDOG_USEC": "0"], ["WATCHDOG_USEC": "-5"], ["WATCHDOG_USEC": "ten"],
        ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "43"], ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "x"],
    ])
    func disabledWhenUnsetMalformedOrForAnotherProcess(environment: [String: String]) {
        #expect(ServiceWatchdog(environment: environment, processID: 42) == nil)
    }
}
