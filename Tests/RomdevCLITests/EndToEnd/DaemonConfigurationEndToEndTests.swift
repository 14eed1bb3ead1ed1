import Appliance
import Foundation
import TestSupport
import Testing

@Suite("Daemon configuration through the binary")
struct DaemonConfigurationEndToEndTests {
    @Test func printConfigIsTheDefaultFile() throws {
        let result = try RomdevProcess.run(["daemon", "--print-config"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == ApplianceConfiguration.defaultFileText)
        #expect(try ApplianceConfiguration.parse(result.stdout, path: "printed") == ApplianceConfiguration())
    }

    @Test func printedFileChecksClean() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/romdev.conf"
        try ApplianceConfiguration.defaultFileText.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try RomdevProcess.run(["daemon", "--check-config", "--config", path])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("\(path): OK\n"))
        #expect(result.stdout.contains("\nreminder_first = 09:00\n"))
    }

    @Test func badFileExitsWithEXConfigNamingFileLineAndKey() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/romdev.conf"
        try "# board B\nquiet_hours = 22:00\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try RomdevProcess.run(["daemon", "--check-config", "--config", path])
        #expect(result.status == 78)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "Error: invalid configuration: \(path):2: quiet_hours: expected HH:MM-HH:MM with different ends"))
    }

    @Test func aBadThighAddressExitsWithEXConfig() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/romdev.conf"
        try "thigh_address = 0x70\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try RomdevProcess.run(["daemon", "--check-config", "--config", path])
        #expect(result.status == 78)
        #expect(
            result.stderr.hasPrefix(
                "Error: invalid configuration: \(path):1: thigh_address: expected 0x69 (AD0 high) or none, got '0x70'"))
    }

    @Test func namedFileMustExist() throws {
        let directory = try TemporaryDirectory()
        let result = try RomdevProcess.run(["daemon", "--check-config", "--config", directory.path + "/absent.conf"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("absent.conf: cannot read the configuration file: no such file"))
    }

    @Test func printConfigRefusesAConfigPath() throws {
        let result = try RomdevProcess.run(["daemon", "--print-config", "--config", "/tmp/x.conf"])
        #expect(result.status == 64)
    }
}
