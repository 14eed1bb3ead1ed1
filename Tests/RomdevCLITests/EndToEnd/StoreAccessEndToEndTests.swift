import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The store as the file system leaves it: readable but not writable, or on a full disk.
@Suite(.serialized) struct StoreAccessEndToEndTests {
    /// The commands that only read, with arguments that work on a store initialised today.
    static let readingCommands: [[String]] = [
        ["today"], ["tasks"], ["outcomes"], ["export", "--format", "csv"],
        ["adherence", "--from", CareEndToEndTests.today, "--to", CareEndToEndTests.day(after: 1)],
        ["events", "--task", "checkin", "--from", CareEndToEndTests.today, "--to", CareEndToEndTests.day(after: 1)],
    ]

    @Test func aUserWhoCannotWriteTheStoreOrItsDirectoryCanStillRead() throws {
        let store = try CareEndToEndTests.Store.onboarded()
        let before = try store.snapshot()
        // Root ignores permissions, so the commands run as nobody; anyone else is refused by
        // the modes themselves.
        // The reads above left the WAL files (a read-only connection cannot remove them, and the
        // next writer would). Without them the reader cannot make SQLite's WAL index in a
        // directory it may not write, as with a copy on read-only media.
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: store.directory.storePath + suffix)
        }
        let files = [store.directory.storePath]
        let wrapper: [String]
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
            wrapper = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            for file in files { #expect(chmod(file, 0o644) == 0) }
            #expect(chmod(store.directory.path, 0o755) == 0)
        } else {
            wrapper = []
            for file in files { #expect(chmod(file, 0o444) == 0) }
            #expect(chmod(store.directory.path, 0o555) == 0)
        }
        defer { chmod(store.directory.path, 0o755) }
        for arguments in Self.readingCommands {
            let result = try RomdevProcess.run(arguments, environment: store.environment, wrapper: wrapper)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let refused = try RomdevProcess.run(
            ["checkin", "--pain", "3", "--sleep", "7"], environment: store.environment, wrapper: wrapper)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot write the care store"), "\(refused.stderr)")
        chmod(store.directory.path, 0o755)
        #expect(try store.snapshot() == before)
    }

    @Test func aFullDiskIsReportedAsSuchAndLosesNothing() throws {
        let store = try CareEndToEndTests.Store()
        let mountPoint = store.directory.path + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        // Mounting needs root (CAP_SYS_ADMIN); without it there is no full disk to test on.
        guard getuid() == 0, mount("tmpfs", mountPoint, "tmpfs", 0, "size=256k") == 0 else { return }
        defer { umount(mountPoint) }
        var environment = store.environment
        environment["ROMDEV_STORE"] = mountPoint + "/care.sqlite"
        for arguments in [["init", "--tz", "UTC"], ["onboard", "--consent-by", "Ann Example"]] {
            #expect(try RomdevProcess.run(arguments, environment: environment).status == 0)
        }
        let before = try RomdevProcess.run(["export", "--format", "json"], environment: environment).stdout
        // Fill the file system to its last block.
        let filler = mountPoint + "/filler"
        #expect(FileManager.default.createFile(atPath: filler, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: filler))
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(handle.fileDescriptor, $0.baseAddress, $0.count) }) > 0 {}
        try handle.close()

        let result = try RomdevProcess.run(["checkin", "--pain", "3", "--sleep", "7"], environment: environment)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "the disk holding the care store \(mountPoint)/care.sqlite is full; nothing was written"),
            "\(result.stderr)")
        #expect(result.stderr.contains("Hint: free some space on that disk, then try again"))

        try FileManager.default.removeItem(atPath: filler)
        #expect(try RomdevProcess.run(["export", "--format", "json"], environment: environment).stdout == before)
        #expect(
            try RomdevProcess.run(["checkin", "--pain", "3", "--sleep", "7"], environment: environment).status == 0)
    }
}
