import Foundation
import Testing

/// The repository's root, found from this file's path (Tests/GPIOTests/…).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func boardFile(_ path: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
}

/// The lines of a file without comments, blank lines and backslash continuations.
private func settings(_ text: String) -> [String] {
    text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        .map { $0.replacingOccurrences(of: "  ", with: " ") }
}

/// `systemd-analyze` from the usual places, or nil on hosts without systemd.
private let systemdAnalyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

private struct Run {
    let status: Int32
    let output: String
}

private func run(_ executable: String, _ arguments: [String]) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
}

/// The overall exposure from `systemd-analyze security`, e.g. 0.7 from
/// `→ Overall exposure level for romdev.service: 0.7 SAFE 😀`.
private func exposure(_ output: String) -> Double? {
    guard let line = output.split(separator: "\n").last(where: { $0.contains("Overall exposure level") }),
        let colon = line.lastIndex(of: ":")
    else { return nil }
    return line[line.index(after: colon)...].split(separator: " ").first.flatMap { Double($0) }
}

@Suite("Board files")
struct BoardFileTests {
    @Test func udevGivesI2CAndGPIONodesToTheirGroups() throws {
        let rules = settings(try boardFile("udev/60-romdev.rules"))
        #expect(rules == [
            #"SUBSYSTEM=="i2c-dev", KERNEL=="i2c-[0-9]*", GROUP="i2c", MODE="0660""#,
            #"SUBSYSTEM=="gpio", KERNEL=="gpiochip[0-9]*", GROUP="gpio", MODE="0660""#,
        ])
    }

    @Test func exportRuleWantsTheTemplatedServiceForARomdevStick() throws {
        let rules = settings(try boardFile("udev/61-romdev-export.rules"))
        #expect(rules.count == 1)
        let rule = try #require(rules.first)
        for part in [#"ACTION=="add""#, #"ENV{ID_FS_LABEL}=="ROMDEV""#, #"ENV{ID_BUS}=="usb""#, #"TAG+="systemd""#,
                     #"ENV{SYSTEMD_WANTS}+="romdev-export@%k.service""#]
        {
            #expect(rule.contains(part), "missing \(part)")
        }
        #expect(!rule.contains("RUN"), "no long-running work from udev")
    }

    @Test func sysusersCreatesTheStaticUserInBothGroups() throws {
        #expect(settings(try boardFile("systemd/romdev.sysusers")) == [
            "g i2c -", "g gpio -", #"u romdev - "romdev appliance" /var/lib/romdev"#, "m romdev i2c", "m romdev gpio",
        ])
    }

    @Test func daemonUnitRunsTheDaemonAsRomdevWithWatchdogAndNotify() throws {
        let unit = Set(settings(try boardFile("systemd/romdev.service")))
        for line in ["Type=notify", "ExecStart=/usr/bin/romdev daemon", "User=romdev", "SupplementaryGroups=i2c gpio",
                     "DeviceAllow=char-i2c rw", "DeviceAllow=char-gpiochip rw", "StateDirectory=romdev", "Restart=on-failure"]
        {
            #expect(unit.contains(line), "missing \(line)")
        }
        #expect(unit.contains { $0.hasPrefix("WatchdogSec=") })
        #expect(!unit.contains { $0.hasPrefix("DynamicUser=") || $0.hasPrefix("PrivateUsers=") || $0.hasPrefix("PrivateDevices=") })
    }

    @Test(
        .enabled(if: systemdAnalyze != nil, "systemd-analyze is not installed on this host"),
        arguments: ["romdev.service", "romdev-export@.service"])
    func unitExposureIsAtMostOne(unit: String) throws {
        let path = repositoryRoot.appendingPathComponent("systemd/\(unit)").path
        let result = try run(try #require(systemdAnalyze), ["security", "--offline=yes", "--no-pager", path])
        #expect(result.status == 0, "\(result.output)")
        let score = try #require(exposure(result.output), "no score in: \(result.output)")
        #expect(score <= 1.0, "\(unit) exposure \(score)")
    }

    @Test(
        .enabled(if: systemdAnalyze != nil, "systemd-analyze is not installed on this host"),
        arguments: [("romdev.service", "romdev.service"), ("romdev-export@.service", "romdev-export@sda1.service")])
    func unitVerifiesWithAnExistingBinary(unit: String, instance: String) throws {
        // `verify` insists that ExecStart= exists, and the daemon is not installed here.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("romdev-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try boardFile("systemd/\(unit)").split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("ExecStart=/usr/bin/romdev ") ? "ExecStart=/bin/true" : String($0) }
            .joined(separator: "\n")
        let copy = directory.appendingPathComponent(instance)
        try text.write(to: copy, atomically: true, encoding: .utf8)
        let result = try run(try #require(systemdAnalyze), ["verify", "--man=no", copy.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains(instance), "\(result.output)")
    }
}
