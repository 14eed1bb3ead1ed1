import Foundation
import ServiceSupport
import Testing

@testable import RomdevCLI

/// `romdev measure` and `romdev calibrate` while a daemon (a fake one in the runtime directory)
/// holds the sensor.
@Suite struct SensorCommandsThroughDaemonTests {
    private func onboarded() throws -> InProcessRomdev {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        return romdev
    }

    @Test func requestGoesToTheDaemonAndItsReplyIsPrinted() throws {
        let romdev = try onboarded()
        let daemon = try FakeDaemon(runtimeDirectory: romdev.runtimeDirectory) { _ in .ok("stored range 112.0°") }
        let output = try romdev.run(["measure", "--limb", "left", "--unscheduled"])
        #expect(daemon.stop() == [.measure(limb: "left", unscheduled: true)])
        #expect(output == "Measured by the romdev daemon: stored range 112.0°\n")
    }

    @Test func jsonPrintsTheDaemonsPayload() throws {
        struct Payload: Codable { var range: Double }
        let romdev = try onboarded()
        let daemon = try FakeDaemon(runtimeDirectory: romdev.runtimeDirectory) { _ in
            (try? .ok("stored", payload: Payload(range: 112.5))) ?? .failed("encoding")
        }
        let output = try romdev.run(["measure", "--json"])
        #expect(daemon.stop() == [.measure(limb: nil, unscheduled: false)])
        #expect(output == #"{"range":112.5}"# + "\n")
    }

    @Test(arguments: [
        (
            ControlReply.busy("a measurement is running"), "the romdev daemon is busy: a measurement is running",
            "wait until it has finished and try again"
        ),
        (ControlReply.failed("motion sensor missing"), "the romdev daemon: motion sensor missing", nil),
    ])
    func busyOrFailedDaemonIsAFailureThatSaysSo(reply: ControlReply, why: String, hint: String?) throws {
        let romdev = try onboarded()
        let daemon = try FakeDaemon(runtimeDirectory: romdev.runtimeDirectory) { _ in reply }
        let failure = romdev.failure(["measure"]) as? CommandFailure
        _ = daemon.stop()
        #expect(failure == CommandFailure("could not measure the range of motion", why: why, hint: hint))
        #expect(try romdev.run(["outcomes", "--task", "rangeOfMotionCheck"]) == "No outcomes.\n")
    }

    @Test func withoutADaemonTheSensorIsUsedDirectly() throws {
        let romdev = try onboarded()
        // Nothing listens in the runtime directory, so the command opens the bus itself.
        let failure = try #require(romdev.failure(["measure", "--bus", "/nonexistent/i2c-9"]))
        #expect("\(failure)".contains("/nonexistent/i2c-9"), "\(failure)")
    }

    @Test func staleSocketCountsAsNoDaemon() throws {
        let romdev = try onboarded()
        let daemon = try FakeDaemon(runtimeDirectory: romdev.runtimeDirectory) { _ in .ok("unused") }
        // A daemon that died leaves its socket file behind.
        let socket = daemon.path
        _ = daemon.stop()
        let descriptor = Glibc.socket(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socket.utf8)) }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(descriptor)
        #expect(FileManager.default.fileExists(atPath: socket))
        let failure = try #require(romdev.failure(["measure", "--bus", "/nonexistent/i2c-9"]))
        #expect("\(failure)".contains("/nonexistent/i2c-9"), "\(failure)")
    }

    @Test func simulatedMeasurementNeverAsksTheDaemon() throws {
        let romdev = try onboarded()
        let daemon = try FakeDaemon(runtimeDirectory: romdev.runtimeDirectory) { _ in .busy("should not be asked") }
        let output = try romdev.run(["measure", "--simulate"])
        #expect(daemon.stop() == [])
        #expect(output.contains("Range of motion: "))
    }

    @Test func calibrationGoesToTheDaemon() throws {
        let romdev = try onboarded()
        let daemon = try FakeDaemon(runtimeDirectory: romdev.runtimeDirectory) { _ in .ok("calibration saved") }
        let output = try romdev.run(["calibrate"])
        #expect(daemon.stop() == [.calibrate])
        #expect(output == "Calibrated by the romdev daemon: calibration saved\n")
    }

    @Test func calibrationRefusedByTheDaemonSaysWhy() throws {
        let romdev = try onboarded()
        let daemon = try FakeDaemon(runtimeDirectory: romdev.runtimeDirectory) { _ in
            .failed("calibration needs the sensor to itself: stop the daemon")
        }
        let failure = romdev.failure(["calibrate"]) as? CommandFailure
        _ = daemon.stop()
        #expect(
            failure
                == CommandFailure(
                    "could not calibrate the sensor",
                    why: "the romdev daemon: calibration needs the sensor to itself: stop the daemon"))
        #expect(!FileManager.default.fileExists(atPath: romdev.directory.path + "/calibration.json"))
    }

    @Test func calibrationWithoutADaemonUsesTheSensorDirectly() throws {
        let romdev = try onboarded()
        let failure = try #require(romdev.failure(["calibrate", "--bus", "/nonexistent/i2c-9"]) as? CommandFailure)
        #expect(failure.what == "could not open the sensor")
        #expect(failure.why?.contains("/nonexistent/i2c-9") == true)
    }
}
