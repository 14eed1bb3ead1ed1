import Foundation
import Glibc
import TestSupport
import Testing

/// One-character and dot-relative paths, through the built binary in a working directory of its
/// own: each used to crash (exit 132) in NSString's path functions.
@Suite(.serialized) struct RelativePathEndToEndTests {
    let directory: TemporaryDirectory
    var environment: [String: String] {
        ["HOME": directory.path, "TZ": "UTC", "ROMDEV_RUNTIME_DIR": directory.path + "/run"]
    }

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func run(_ arguments: [String], store: String? = nil) throws -> RomdevProcess.Result {
        var environment = environment
        environment["ROMDEV_STORE"] = store
        return try RomdevProcess.run(arguments, environment: environment, in: directory.path)
    }

    @Test func oneCharacterStoresOutputsAndTraces() throws {
        let initialised = try run(["init"], store: "c")
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/c"))
        let today = try run(["today", "--store", "c"])
        #expect(today.status == 0, "\(today.stderr)")
        let toStandardOutput = try run(["export", "--format", "json", "--output", "-"], store: "c")
        #expect(toStandardOutput.status == 0, "\(toStandardOutput.stderr)")
        #expect(toStandardOutput.stdout.hasPrefix("{"))
        let exported = try run(["export", "--format", "csv", "--output", "e"], store: "c")
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/e"))

        let recorded = try run(["record", "--simulate", "--seconds", "1", "--output", "r"])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let replayed = try run(["replay", "r", "--trace", "t"], store: "c")
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/t"))

    }

    @Test(arguments: [".", "./", "a/", "~", "~/care.sqlite"])
    func pathsThatNameNoStoreFileAreUsageErrors(path: String) throws {
        let result = try run(["today", "--store", path])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: The value '\(path)' is invalid for '--store <path>'"))
        let fromEnvironment = try run(["today"], store: path)
        #expect(fromEnvironment.status == 78, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stderr.contains("(from ROMDEV_STORE) cannot be used"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func anExistingDirectoryIsNoStore() throws {
        let result = try run(["today", "--store", "/tmp"])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "Error: could not open the care store at /tmp: it is a directory, not a regular file"))
    }

    /// SQLite would wait forever for data from a FIFO; the daemon refuses it like the commands do.
    @Test func daemonRefusesAStoreThatIsNoRegularFile() throws {
        #expect(mkfifo(directory.path + "/f", 0o600) == 0)
        let result = try run(["daemon", "--simulate", "--store", "f", "--exit-after", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: could not open the care store at f: it is a FIFO, not a regular file"))
    }

    /// Writing output replaced a FIFO (or, as root, /dev/null) with a regular file.
    @Test func outputNeverReplacesAFIFO() throws {
        #expect(try run(["init"], store: "s").status == 0)
        #expect(mkfifo(directory.path + "/f", 0o600) == 0)
        let result = try run(["export", "--format", "csv", "--output", "f"], store: "s")
        #expect(result.status == 1)
        #expect(result.stderr == "Error: could not write f: will not replace f: it is a FIFO, not a regular file\n")
        var status = stat()
        #expect(lstat(directory.path + "/f", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }
}
