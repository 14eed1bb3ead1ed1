import Foundation
import ServiceSupport
import TestSupport
import Testing

/// `romdev export --to DIR` through the built binary, as romdev-export@.service runs it.
@Suite(.serialized) struct ExportEndToEndTests {
    /// A store with 100 days of check-ins (a CSV export of some 40 KB), written in process.
    private func largeStore() throws -> InProcessRomdev {
        let romdev = try InProcessRomdev(now: InProcessRomdev.sunday0930.addingTimeInterval(100 * 86_400))
        try romdev.initialiseAndOnboard()
        let calendar = Calendar(identifier: .gregorian)
        for day in 0..<100 {
            let date = calendar.date(byAdding: .day, value: day, to: InProcessRomdev.sunday0930)!
            let text = ISO8601DateFormatter.string(
                from: date, timeZone: romdev.timeZone, formatOptions: [.withFullDate])
            try romdev.run(["checkin", "--pain", "3", "--sleep", "7", "--date", text])
        }
        return romdev
    }

    private func environment(_ romdev: InProcessRomdev) -> [String: String] {
        [
            "ROMDEV_STORE": romdev.directory.storePath, "HOME": romdev.directory.path,
            "ROMDEV_RUNTIME_DIR": romdev.runtimeDirectory,
        ]
    }

    private func stick(_ romdev: InProcessRomdev) throws -> String {
        let path = romdev.directory.path + "/stick"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func writeThatFailsHalfwayLeavesNoFile() throws {
        let romdev = try largeStore()
        let stick = try stick(romdev)
        // A 36 KiB file size limit (room for SQLite's 32 KiB shared-memory file) makes the
        // write of the 40 KB CSV fail with EFBIG part way; SIGXFSZ is ignored so the write
        // reports it instead of killing the process. bash counts ulimit -f in KiB.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", "trap '' XFSZ; ulimit -f 36; exec \"$0\" export --to \"$1\"", RomdevProcess.executable.path, stick,
        ]
        process.environment = environment(romdev).merging(["PATH": "/usr/bin:/bin"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(stderr.hasPrefix("Error: could not export to \(stick): write "), "\(stderr)")
        #expect(stderr.contains("EFBIG"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: stick) == [])
    }

    @Test func missingDirectoryIsAFailureNamingIt() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let result = try RomdevProcess.run(
            ["export", "--to", romdev.directory.path + "/nowhere"], environment: environment(romdev))
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "Error: could not export to \(romdev.directory.path)/nowhere: open the directory \(romdev.directory.path)/nowhere: No such file or directory (ENOENT)\n"
        )
    }

    @Test func formatWithToIsAUsageError() throws {
        let result = try RomdevProcess.run(["export", "--to", "/tmp", "--format", "csv"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: --to writes both formats; leave out '--format' and '--output'\nUsage: romdev export"))
    }

    @Test func daemonListeningInTheRuntimeDirectoryIsTold() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let stick = try stick(romdev)
        let daemon = try FakeDaemon(runtimeDirectory: romdev.runtimeDirectory) { _ in .ok("cue played") }
        let result = try RomdevProcess.run(["export", "--to", stick], environment: environment(romdev))
        let requests = daemon.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: stick).sorted()
        #expect(requests.map { if case .exportDone(let told) = $0 { told.sorted() } else { [] } } == [files])
        #expect(files.map { ($0 as NSString).pathExtension } == ["csv", "html", "json"])
    }
}
