import Foundation
import TestSupport
import Testing

/// The repository's root, found from this file's path (Tests/RomdevCLITests/EndToEnd/…).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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

/// `make` from the usual places, or nil.
private let make = ["/usr/bin/make", "/bin/make"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// The built `romdev`, or nil.
private let builtRomdev: String? =
    FileManager.default.isExecutableFile(atPath: RomdevProcess.executable.path) ? RomdevProcess.executable.path : nil

private struct Run {
    let status: Int32
    let output: String
}

private func run(
    _ executable: String, _ arguments: [String], directory: URL? = nil, environment: [String: String]? = nil
) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    if let environment { process.environment = environment }
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
        #expect(
            rules.prefix(2) == [
                #"SUBSYSTEM=="i2c-dev", KERNEL=="i2c-[0-9]*", GROUP="i2c", MODE="0660""#,
                #"SUBSYSTEM=="gpio", KERNEL=="gpiochip[0-9]*", GROUP="gpio", MODE="0660""#,
            ])
    }

    @Test func udevGivesThePWMChannelFilesToGroupGPIO() throws {
        let rules = settings(try boardFile("udev/60-romdev.rules")).filter { $0.contains(#"SUBSYSTEM=="pwm""#) }
        #expect(rules.count == 1)
        let rule = try #require(rules.first)
        // "change" carries EXPORT=pwmN once a channel's files exist; "add" covers boot and triggers.
        #expect(rule.contains(#"ACTION=="add|change""#))
        for file in ["export", "unexport", "pwm[0-9]*/period", "pwm[0-9]*/duty_cycle", "pwm[0-9]*/enable"] {
            #expect(rule.contains(" \(file) ") || rule.contains(" \(file);"), "missing \(file)")
        }
        #expect(rule.contains("chgrp gpio") && rule.contains("chmod g+w"))
        #expect(!rule.contains("chmod -R") && !rule.contains("777"), "only the PWM files, only the group")
    }

    @Test func exportRuleWantsTheTemplatedServiceForARomdevStick() throws {
        let rules = settings(try boardFile("udev/61-romdev-export.rules"))
        #expect(rules.count == 1)
        let rule = try #require(rules.first)
        for part in [
            #"ACTION=="add""#, #"ENV{ID_FS_LABEL}=="ROMDEV""#, #"ENV{ID_BUS}=="usb""#, #"TAG+="systemd""#,
            #"ENV{SYSTEMD_WANTS}+="romdev-export@%k.service""#,
        ] {
            #expect(rule.contains(part), "missing \(part)")
        }
        #expect(!rule.contains("RUN"), "no long-running work from udev")
    }

    @Test func sysusersCreatesTheStaticUserInBothGroups() throws {
        #expect(
            settings(try boardFile("systemd/romdev.sysusers")) == [
                "g i2c -", "g gpio -", #"u romdev - "romdev appliance" /var/lib/romdev"#, "m romdev i2c",
                "m romdev gpio",
            ])
    }

    @Test func daemonUnitRunsTheDaemonAsRomdevWithWatchdogAndNotify() throws {
        let unit = Set(settings(try boardFile("systemd/romdev.service")))
        for line in [
            "Type=notify", "ExecStart=/usr/bin/romdev daemon", "User=romdev", "SupplementaryGroups=i2c gpio",
            "DeviceAllow=char-i2c rw", "DeviceAllow=char-gpiochip rw", "StateDirectory=romdev", "Restart=on-failure",
        ] {
            #expect(unit.contains(line), "missing \(line)")
        }
        #expect(unit.contains { $0.hasPrefix("WatchdogSec=") })
        // The control socket (0660, group romdev) is reachable by group romdev only.
        #expect(unit.contains("RuntimeDirectory=romdev") && unit.contains("RuntimeDirectoryMode=0750"))
        #expect(
            !unit.contains {
                $0.hasPrefix("DynamicUser=") || $0.hasPrefix("PrivateUsers=") || $0.hasPrefix("PrivateDevices=")
            })
    }

    @Test func daemonUnitReopensOnlyThePWMChipsUnderTheReadOnlySys() throws {
        let unit = settings(try boardFile("systemd/romdev.service"))
        #expect(unit.contains("ProtectKernelTunables=yes"))
        let writable = unit.filter { $0.hasPrefix("ReadWritePaths=") }.map { $0.dropFirst("ReadWritePaths=".count) }
        #expect(!writable.isEmpty)
        for path in writable {
            // "-": skipped on boards without that chip; each path is one PWM controller's device.
            #expect(path.hasPrefix("-/sys/devices/platform/") && path.hasSuffix(".pwm"), "\(path)")
        }
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
        let directory = try TemporaryDirectory()
        let text = try boardFile("systemd/\(unit)").split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("ExecStart=/usr/bin/romdev ") ? "ExecStart=/bin/true" : String($0) }
            .joined(separator: "\n")
        let copy = directory.url.appendingPathComponent(instance)
        try text.write(to: copy, atomically: true, encoding: .utf8)
        let result = try run(try #require(systemdAnalyze), ["verify", "--man=no", copy.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains(instance), "\(result.output)")
    }
}

@Suite("Installing on a board")
struct InstallTests {
    /// `make install` of the built romdev into a scratch DESTDIR.
    private func install(prefix: String, into root: TemporaryDirectory) throws -> Run {
        try run(
            try #require(make),
            [
                "--no-print-directory", "install", "PREFIX=\(prefix)", "DESTDIR=\(root.url.path)",
                "ROMDEV_BIN=\(try #require(builtRomdev))", "SOURCE_DATE_EPOCH=1700000000",
            ],
            directory: repositoryRoot)
    }

    /// What `make deb` depends on, from make's rule database (`-p`; `-q` with an empty
    /// apt-install runs nothing; `-n` would still run the recipe lines that call $(MAKE)).
    private func debPrerequisites(_ variables: [String]) throws -> [String]? {
        let database = try run(
            try #require(make), ["-pq", "--no-print-directory", "apt-install", "PACKAGES="] + variables,
            directory: repositoryRoot)
        let rule = database.output.split(separator: "\n").first { $0.hasPrefix("deb:") }
        return rule.map { $0.dropFirst("deb:".count).split(separator: " ").map(String.init) }
    }

    @Test(.enabled(if: make != nil, "needs make"))
    func packagingAGivenBinaryBuildsNothing() throws {
        #expect(try debPrerequisites(["ROMDEV_BIN=/usr/bin/true"]) == [])
        #expect(try debPrerequisites([]) == ["release"])
    }

    @Test(.enabled(if: make != nil && builtRomdev != nil, "needs make and the built romdev"))
    func usrLocalInstallPutsEveryFileWhereSystemdAndUdevReadIt() throws {
        let root = try TemporaryDirectory()
        let result = try install(prefix: "/usr/local", into: root)
        try #require(result.status == 0, "\(result.output)")

        #expect(FileManager.default.isExecutableFile(atPath: root.path("/usr/local/bin/romdev")))
        let version = try run(root.path("/usr/local/bin/romdev"), ["--version"])
        #expect(version.status == 0 && !version.output.isEmpty, "the installed binary runs")

        let page = try run("/bin/sh", ["-c", "gzip -dc \(root.path("/usr/local/share/man/man8/romdev.8.gz"))"])
        #expect(page.output.contains(".TH ROMDEV 8 2023-11-14 "), "romdev(8), dated by SOURCE_DATE_EPOCH")

        for unit in ["romdev.service", "romdev-export@.service"] {
            let installed = try root.read("/usr/local/lib/systemd/system/\(unit)")
            #expect(installed.contains("ExecStart=/usr/local/bin/romdev "), "\(unit) runs the installed binary")
            #expect(!installed.contains("/usr/bin/romdev"), "\(unit) still names /usr/bin/romdev")
            let source = try boardFile("systemd/\(unit)")
            #expect(installed == source.replacingOccurrences(of: "/usr/bin/romdev", with: "/usr/local/bin/romdev"))
        }
        for rules in ["60-romdev.rules", "61-romdev-export.rules"] {
            #expect(try root.read("/usr/local/lib/udev/rules.d/\(rules)") == (try boardFile("udev/\(rules)")))
        }
        #expect(try root.read("/usr/local/lib/sysusers.d/romdev.conf") == (try boardFile("systemd/romdev.sysusers")))
        #expect(try root.read("/usr/local/lib/tmpfiles.d/romdev.conf") == (try boardFile("systemd/romdev.tmpfiles")))

        let defaults = try run(try #require(builtRomdev), ["daemon", "--print-config"])
        #expect(defaults.status == 0)
        #expect(try root.read("/etc/romdev/romdev.conf") == defaults.output, "the default configuration")
        let check = try run(
            root.path("/usr/local/bin/romdev"),
            ["daemon", "--check-config", "--config", root.path("/etc/romdev/romdev.conf")])
        #expect(check.status == 0, "the installed daemon accepts the installed configuration: \(check.output)")
    }

    @Test(.enabled(if: make != nil && builtRomdev != nil, "needs make and the built romdev"))
    func installKeepsAnExistingConfiguration() throws {
        let root = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root.path("/etc/romdev"), withIntermediateDirectories: true)
        try "button = GPIO5\n".write(toFile: root.path("/etc/romdev/romdev.conf"), atomically: true, encoding: .utf8)
        let result = try install(prefix: "/usr/local", into: root)
        #expect(result.status == 0, "\(result.output)")
        #expect(try root.read("/etc/romdev/romdev.conf") == "button = GPIO5\n")
    }

    @Test(.enabled(if: make != nil && builtRomdev != nil, "needs make and the built romdev"))
    func usrInstallUsesTheSystemsUnitDirectory() throws {
        let root = try TemporaryDirectory()
        let result = try install(prefix: "/usr", into: root)
        try #require(result.status == 0, "\(result.output)")
        // Debian's systemd.pc says /lib/systemd/system on bookworm, /usr/lib/systemd/system on trixie.
        let unit = try #require(
            ["/lib/systemd/system", "/usr/lib/systemd/system"]
                .map { root.path("\($0)/romdev.service") }.first { FileManager.default.fileExists(atPath: $0) })
        #expect(try String(contentsOfFile: unit, encoding: .utf8) == (try boardFile("systemd/romdev.service")))
        #expect(FileManager.default.isExecutableFile(atPath: root.path("/usr/bin/romdev")))
        #expect(FileManager.default.fileExists(atPath: root.path("/usr/lib/sysusers.d/romdev.conf")))
    }

    @Test(.enabled(if: make != nil && builtRomdev != nil, "needs make and the built romdev"))
    func uninstallRemovesEverythingButTheConfiguration() throws {
        let root = try TemporaryDirectory()
        try #require(try install(prefix: "/usr/local", into: root).status == 0)
        let result = try run(
            try #require(make), ["--no-print-directory", "uninstall", "PREFIX=/usr/local", "DESTDIR=\(root.url.path)"],
            directory: repositoryRoot)
        #expect(result.status == 0, "\(result.output)")
        let left = try FileManager.default.subpathsOfDirectory(atPath: root.url.path).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.path("/\(path)"), isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
        #expect(left == ["etc/romdev/romdev.conf"])
    }

    @Test(.enabled(if: make != nil && builtRomdev != nil, "needs make and the built romdev"))
    func otherPrefixesKeepTheBoardFilesWhereTheyAreRead() throws {
        let root = try TemporaryDirectory()
        let result = try install(prefix: "/opt/romdev", into: root)
        try #require(result.status == 0, "\(result.output)")
        #expect(FileManager.default.isExecutableFile(atPath: root.path("/opt/romdev/bin/romdev")))
        let unit = try root.read("/usr/local/lib/systemd/system/romdev.service")
        #expect(unit.contains("ExecStart=/opt/romdev/bin/romdev daemon"))
        #expect(FileManager.default.fileExists(atPath: root.path("/usr/local/lib/udev/rules.d/60-romdev.rules")))
    }
}

@Suite("Package scripts")
struct PackageScriptTests {
    /// Runs a maintainer script with stand-ins for the system tools that log their arguments;
    /// `deb-systemd-helper was-enabled` answers `wasEnabled`.
    private func runScript(_ name: String, _ arguments: [String], wasEnabled: Bool = true) throws -> (
        status: Int32, calls: [String]
    ) {
        let scratch = try TemporaryDirectory()
        let log = scratch.path("/calls")
        for tool in [
            "systemd-sysusers", "systemd-tmpfiles", "systemctl", "udevadm", "deb-systemd-helper", "deb-systemd-invoke",
        ] {
            let stub = scratch.path("/\(tool)")
            let answer =
                tool == "deb-systemd-helper" ? "case \"$*\" in *was-enabled*) exit \(wasEnabled ? 0 : 1);; esac\n" : ""
            try "#!/bin/sh\necho \"\(tool) $*\" >> \(log)\n\(answer)".write(
                toFile: stub, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub)
        }
        let result = try run(
            "/bin/sh", [repositoryRoot.appendingPathComponent("systemd/\(name)").path] + arguments,
            environment: ["PATH": "\(scratch.url.path):/usr/bin:/bin"])
        let calls = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        return (result.status, calls)
    }

    @Test func firstConfigureCreatesUsersAndStateAndEnablesTheDaemon() throws {
        let (status, calls) = try runScript("romdev.postinst", ["configure", ""])
        #expect(status == 0)
        #expect(calls.contains("systemd-sysusers romdev.conf"))
        #expect(calls.contains("systemd-tmpfiles --create romdev.conf"))
        #expect(calls.contains("deb-systemd-helper enable romdev.service"))
    }

    @Test func upgradeAfterAnAdministratorDisabledTheDaemonLeavesItDisabled() throws {
        let (status, calls) = try runScript("romdev.postinst", ["configure", "0.1.0"], wasEnabled: false)
        #expect(status == 0)
        #expect(calls.contains("systemd-sysusers romdev.conf"))
        #expect(!calls.contains("deb-systemd-helper enable romdev.service"))
        #expect(calls.contains("deb-systemd-helper update-state romdev.service"))
    }

    @Test func scriptsStartAndStopOnlyThroughDebSystemdInvoke() throws {
        for script in ["romdev.postinst", "romdev.prerm", "romdev.postrm"] {
            let commands = settings(try boardFile("systemd/\(script)")).filter { $0.contains("systemctl") }
            // daemon-reload is the one direct systemctl call; policy-rc.d applies to the rest.
            #expect(commands.allSatisfy { $0.contains("systemctl --system daemon-reload") }, "\(script): \(commands)")
        }
    }

    @Test func removeMasksAndPurgeForgetsButKeepsTheCareStore() throws {
        let remove = try runScript("romdev.postrm", ["remove"])
        #expect(remove.status == 0 && remove.calls.contains("deb-systemd-helper mask romdev.service"))
        let purge = try runScript("romdev.postrm", ["purge"])
        #expect(purge.status == 0 && purge.calls.contains("deb-systemd-helper purge romdev.service"))
        #expect(!(try boardFile("systemd/romdev.postrm")).contains("rm "), "postrm never deletes files")
    }
}
