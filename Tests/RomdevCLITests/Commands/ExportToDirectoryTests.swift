import CareStorage
import Foundation
import ServiceSupport
import Synchronization
import Testing

@testable import RomdevCLI

/// `romdev export --to DIR`, in process with a fixed clock (2026-06-07T07:30:00Z).
@Suite struct ExportToDirectoryTests {
    private func exported() throws -> (InProcessRomdev, String, String) {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        try romdev.run(["checkin", "--pain", "3", "--sleep", "7"])
        let stick = romdev.directory.path + "/stick"
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: false)
        let deviceID = try CareStore(path: romdev.directory.storePath, timeZone: romdev.timeZone).storeMetadata()
            .deviceID
        return (romdev, stick, "romdev-\(deviceID.uuidString)-20260607T073000Z")
    }

    private func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    private func listing(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test func writesBothFormatsNamedByDeviceAndUTCTime() throws {
        let (romdev, stick, base) = try exported()
        #expect(
            try romdev.run(["export", "--to", stick])
                == "Exported 2 outcomes to \(stick)/\(base).csv, \(stick)/\(base).json and \(stick)/\(base).html.\n")
        #expect(try listing(stick) == [base + ".csv", base + ".html", base + ".json"], "no temporary file is left")
        #expect(try contents(stick + "/" + base + ".csv") == (try romdev.run(["export", "--format", "csv"])))
        #expect(try contents(stick + "/" + base + ".json") == (try romdev.run(["export", "--format", "json"])))
        #expect(try contents(stick + "/" + base + ".html") == (try romdev.run(["report", "--output", "-"])))
    }

    @Test func repeatedExportsGetNewNamesAndKeepEarlierFiles() throws {
        let (romdev, stick, base) = try exported()
        try romdev.run(["export", "--to", stick])
        let first = try contents(stick + "/" + base + ".csv")
        try romdev.run(["checkin", "--pain", "2", "--sleep", "8", "--date", "2026-06-08"])
        #expect(
            try romdev.run(["export", "--to", stick + "/"]).contains(
                "\(stick)/\(base)-2.csv, \(stick)/\(base)-2.json and \(stick)/\(base)-2.html"))
        try romdev.run(["export", "--to", stick])
        #expect(
            try listing(stick)
                == [base, base + "-2", base + "-3"].flatMap { [$0 + ".csv", $0 + ".json", $0 + ".html"] }.sorted())
        #expect(try contents(stick + "/" + base + ".csv") == first)
        #expect(try contents(stick + "/" + base + "-2.csv") != first)
    }

    @Test func fileAlreadyUsingOneOfTheNamesIsLeftAlone() throws {
        let (romdev, stick, base) = try exported()
        try "mine".write(toFile: stick + "/" + base + ".json", atomically: false, encoding: .utf8)
        try romdev.run(["export", "--to", stick])
        #expect(
            try listing(stick) == [base + "-2.csv", base + "-2.html", base + "-2.json", base + ".json"],
            "the files share one name")
        #expect(try contents(stick + "/" + base + ".json") == "mine")
    }

    @Test func filesAppearOnlyComplete() throws {
        let (romdev, stick, base) = try exported()
        for day in 8...20 {
            try romdev.run(["checkin", "--pain", "2", "--sleep", "8", "--date", String(format: "2026-06-%02d", day)])
        }
        // A reader watching the stick while the export runs sees a final name only with its
        // whole content (it may also never catch the moment; it can never see a partial file).
        let seen = Mutex<[String: Set<String>]>([:])
        let done = Atomic<Bool>(false)
        let watcherFinished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while !done.load(ordering: .sequentiallyConsistent) {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: stick)) ?? []
                where name.hasPrefix("romdev-") {
                    if let text = try? String(contentsOfFile: stick + "/" + name, encoding: .utf8) {
                        seen.withLock { _ = $0[name, default: []].insert(text) }
                    }
                }
            }
            watcherFinished.signal()
        }
        try romdev.run(["export", "--to", stick])
        done.store(true, ordering: .sequentiallyConsistent)
        watcherFinished.wait()
        for (name, texts) in seen.withLock({ $0 }) {
            let whole = try contents(stick + "/" + name)
            #expect(texts == [whole], "\(name) was seen incomplete")
        }
        #expect(try listing(stick) == [base + ".csv", base + ".html", base + ".json"])
    }

    @Test func unusableDirectoryFailsWithItsName() throws {
        let (romdev, stick, _) = try exported()
        let missing = stick + "/missing"
        let failure = try #require(romdev.failure(["export", "--to", missing]) as? CommandFailure)
        #expect(failure.what == "could not export to \(missing)")
        #expect(failure.why?.hasPrefix("open the directory \(missing): No such file or directory") == true)
        try "x".write(toFile: stick + "/file", atomically: false, encoding: .utf8)
        let notDirectory = try #require(romdev.failure(["export", "--to", stick + "/file"]) as? CommandFailure)
        #expect(notDirectory.why?.contains("Not a directory") == true)
        #expect(try listing(stick) == ["file"])
    }

    @Test func runningDaemonIsToldWhichFilesWereWritten() throws {
        let (romdev, stick, base) = try exported()
        let daemon = try FakeDaemon(runtimeDirectory: romdev.runtimeDirectory) { _ in .ok("export cue") }
        let output = try romdev.run(["export", "--to", stick])
        #expect(daemon.stop() == [.exportDone(files: [base + ".csv", base + ".json", base + ".html"])])
        #expect(!output.contains("Note:"))
    }

    @Test func daemonTroubleIsANoteNotAFailure() throws {
        let (romdev, stick, base) = try exported()
        let daemon = try FakeDaemon(runtimeDirectory: romdev.runtimeDirectory) { _ in .busy("a measurement is running")
        }
        let output = try romdev.run(["export", "--to", stick])
        _ = daemon.stop()
        #expect(output.hasSuffix("Note: the daemon did not confirm the export: a measurement is running\n"))
        #expect(try listing(stick) == [base + ".csv", base + ".html", base + ".json"])
    }

    @Test func toExcludesFormatAndOutput() {
        for arguments in [["export", "--to", "/x", "--format", "csv"], ["export", "--to", "/x", "--output", "/y"]] {
            #expect { try Romdev.tool.parse(arguments) } throws: {
                ($0 as? UsageError)?.message == "--to writes both formats; leave out '--format' and '--output'"
            }
        }
    }
}
