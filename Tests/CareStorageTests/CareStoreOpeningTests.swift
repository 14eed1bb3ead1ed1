import Care
import CareStorage
import Foundation
import SQLite
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct CareStoreOpeningTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    @Test func openingCreatesParentDirectories() throws {
        let path = fixture.directory.path("a/b/care.sqlite")
        _ = try CareStore(path: path, timeZone: fixture.calendar.timeZone)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func theDeviceIDIsMintedOnceWithTheStore() throws {
        let id = try fixture.store.storeMetadata().deviceID
        let reopened = try CareStore(path: fixture.path, timeZone: fixture.calendar.timeZone)
        #expect(try reopened.storeMetadata().deviceID == id)
        let other = try CareStore(
            path: fixture.directory.path("other.sqlite"),
            timeZone: fixture.calendar.timeZone)
        #expect(try other.storeMetadata().deviceID != id)
    }

    @Test func refusesAStoreFromANewerRomdev() throws {
        let database = try Database(path: fixture.path)
        try database.write { db in
            try db.execute("INSERT INTO schema_migrations (name) VALUES ('fromTheFuture')")
            try db.execute("PRAGMA user_version = \(CareStore.schemaVersion + 1)")
        }
        let before = try fixture.dump()
        let newer = CareStore.schemaVersion + 1
        #expect { _ = try CareStore(path: fixture.path, timeZone: fixture.calendar.timeZone) } throws: {
            guard
                case .storeTooNew(storeVersion: newer, supportedVersion: CareStore.schemaVersion)? = $0
                    as? CareStoreError
            else { return false }
            return String(describing: $0) == "store schema version \(newer) is newer than this romdev"
                + " (\(CareStore.schemaVersion)): upgrade romdev"
        }
        #expect(try fixture.dump() == before)
    }

    @Test(arguments: [CareStore.Access.readOnly, .readWrite, .create, .initialize])
    func refusesAFileThatIsNotAStore(access: CareStore.Access) throws {
        let path = fixture.directory.path("notes.sqlite")
        let notes = Data(repeating: 0x41, count: 8192)
        try notes.write(to: URL(fileURLWithPath: path))
        #expect { try CareStore(path: path, access: access, timeZone: fixture.calendar.timeZone) } throws: {
            guard case .notAStore(let named, let reason)? = $0 as? CareStoreError else { return false }
            return named == path && reason == .notSQLite
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == notes)
    }

    @Test func aMissingStoreIsRefusedWithTheSystemsReason() throws {
        let path = fixture.directory.path("absent.sqlite")
        #expect { try CareStore(path: path, access: .readWrite, timeZone: fixture.calendar.timeZone) } throws: {
            guard case .cannotOpen(path, .noSuchFileOrDirectory)? = $0 as? CareStoreError else { return false }
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aDirectoryThatCannotBeMadeIsNamedWithItsErrno() throws {
        // A dangling symbolic link: the store is missing, and mkdir finds the name taken.
        let blocker = fixture.directory.path("dangling")
        try FileManager.default.createSymbolicLink(atPath: blocker, withDestinationPath: "nowhere")
        #expect { try CareStore(path: blocker + "/care.sqlite", timeZone: fixture.calendar.timeZone) } throws: {
            guard case .cannotCreateDirectory(blocker, .fileExists)? = $0 as? CareStoreError else { return false }
            return true
        }
        let nested = fixture.directory.path("a/b/care.sqlite")
        _ = try CareStore(path: nested, timeZone: fixture.calendar.timeZone)
        #expect(FileManager.default.fileExists(atPath: nested))
    }

    @Test(arguments: [CareStore.Access.readOnly, .readWrite, .create])
    func anEmptyFileIsNeverMadeIntoAStore(access: CareStore.Access) throws {
        let path = fixture.directory.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect { try CareStore(path: path, access: access, timeZone: fixture.calendar.timeZone) } throws: {
            guard case .notAStore(let named, let reason)? = $0 as? CareStoreError else { return false }
            return named == path && reason == .emptyFile
        }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func initializeAdoptsAnEmptyFile() throws {
        let path = fixture.directory.path("mktemp.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let store = try CareStore(path: path, access: .initialize, timeZone: fixture.calendar.timeZone)
        #expect(try store.integrityProblem() == nil)
        #expect(try store.fetchTasks(TaskQuery()).isEmpty)
    }

    @Test func anotherProgramsDatabaseIsLeftAlone() throws {
        let path = fixture.directory.path("other.sqlite")
        try Database(path: path).write { try $0.execute("CREATE TABLE notes (text TEXT)") }
        for access in [CareStore.Access.readOnly, .readWrite, .create, .initialize] {
            #expect { try CareStore(path: path, access: access, timeZone: fixture.calendar.timeZone) } throws: {
                guard case .notAStore(let named, let reason)? = $0 as? CareStoreError else { return false }
                return named == path && reason == .foreignDatabase
            }
        }
        #expect(
            try Database(path: path).read { try $0.fetchValue("SELECT count(*) FROM sqlite_master", as: Int.self) } == 1
        )
    }

    /// A database of another program in rollback-journal mode, as SQLite makes them by default:
    /// the header's journal bytes (offsets 18 and 19) set back from WAL's 2 to 1.
    private func rollbackDatabase(_ name: String, sql: String?) throws -> String {
        let path = fixture.directory.path(name)
        do {
            let database = try Database(path: path)
            if let sql { try database.write { try $0.execute(sql) } }
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[18] = 1
        bytes[19] = 1
        try bytes.write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        return path
    }

    /// Opening it for writing switched it to WAL journaling (its header rewritten) before it was
    /// found not to be a store; reading it failed on the journal mode instead of saying so.
    @Test func anotherProgramsRollbackJournalDatabaseIsNotEvenOpened() throws {
        let path = try rollbackDatabase("notes.sqlite", sql: "CREATE TABLE notes (text TEXT)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for access in [CareStore.Access.readOnly, .readWrite, .create, .initialize] {
            #expect { try CareStore(path: path, access: access, timeZone: fixture.calendar.timeZone) } throws: {
                guard case .notAStore(let named, let reason)? = $0 as? CareStoreError else { return false }
                return named == path && reason == .foreignDatabase
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aRollbackJournalDatabaseWithoutTablesIsForInitOnly() throws {
        let path = try rollbackDatabase("blank.sqlite", sql: nil)
        #expect { try CareStore(path: path, access: .readWrite, timeZone: fixture.calendar.timeZone) } throws: {
            guard case .notAStore(_, let reason)? = $0 as? CareStoreError else { return false }
            return reason == .emptyDatabase
        }
        let store = try CareStore(path: path, access: .initialize, timeZone: fixture.calendar.timeZone)
        #expect(try store.integrityProblem() == nil)
    }

    @Test func onlyCreatingAccessCreatesAMissingStore() throws {
        let path = fixture.directory.path("missing.sqlite")
        for access in [CareStore.Access.readOnly, .readWrite] {
            #expect(throws: CareStoreError.self) {
                try CareStore(path: path, access: access, timeZone: fixture.calendar.timeZone)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        _ = try CareStore(path: path, access: .create, timeZone: fixture.calendar.timeZone)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func theStoreAndItsWALFilesAreCreatedGroupWritable() throws {
        let path = fixture.directory.path("modes/care.sqlite")
        // The appliance's unit runs with UMask=0007, a login shell with 0022: neither matters.
        let store = try CareStore(path: path, access: .create, timeZone: fixture.calendar.timeZone)
        try store.setMetadata("left", for: .limb)
        for file in [path, path + "-wal", path + "-shm"] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
            #expect(mode == 0o660, "\(file): \(String(mode, radix: 8))")
        }
    }

    /// A closed store of several pages (the WAL checkpointed into the file), for damaging.
    private func closedStoreOfSeveralPages() throws -> String {
        let path = fixture.directory.path("damaged.sqlite")
        do {
            let store = try CareStore(path: path, access: .create, timeZone: fixture.calendar.timeZone)
            // Rows small enough to stay on b-tree pages (no overflow pages, whose content SQLite
            // cannot check), many enough to give meta an interior page.
            for index in 0..<200 {
                try store.setMetadata(String(repeating: "x", count: 100), for: MetadataKey(rawValue: "padding\(index)"))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        return path
    }

    private func expectWritersRefuse(_ path: String) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for access in [CareStore.Access.readWrite, .create, .initialize] {
            #expect { try CareStore(path: path, access: access, timeZone: fixture.calendar.timeZone) } throws: {
                guard case .damaged(let named, _)? = $0 as? CareStoreError, named == path else { return false }
                // One line, however many lines SQLite's answer has.
                return !"\($0)".contains("\n")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aStoreWithACorruptPageIsRefusedToWriters() throws {
        let path = try closedStoreOfSeveralPages()
        let root = try #require(
            try Database(path: path).read {
                try $0.fetchValue("SELECT rootpage FROM sqlite_master WHERE name = 'meta'", as: Int.self)
            })
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        // The cell pointers of the meta table's root page (pages are 4096 bytes, numbered from 1).
        try handle.seek(toOffset: UInt64((root - 1) * 4096 + 12))
        handle.write(Data(repeating: 0xA5, count: 64))
        try handle.close()
        try expectWritersRefuse(path)
    }

    @Test func aTruncatedStoreIsRefusedToWriters() throws {
        let path = try closedStoreOfSeveralPages()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        try expectWritersRefuse(path)
    }

    @Test func aReadOnlyStoreReadsButNeverWrites() throws {
        try fixture.store.setMetadata("left", for: .limb)
        let reader = try CareStore(path: fixture.path, access: .readOnly, timeZone: fixture.calendar.timeZone)
        #expect(try reader.storeMetadata().limb == .left)
        let before = try fixture.dump()
        #expect { try reader.setMetadata("right", for: .limb) } throws: {
            guard case .database(let error)? = $0 as? CareStoreError else { return false }
            return error.resultCode == .SQLITE_READONLY
        }
        #expect(try fixture.dump() == before)
    }

    @Test func metadataRoundTripsAndRefusesAnUnknownZone() throws {
        try fixture.store.setMetadata("right", for: .limb)
        #expect(try fixture.store.metadata(.limb) == "right")
        #expect(try fixture.store.storeMetadata().limb == .right)
        #expect { try fixture.store.setMetadata("Mars/Olympus", for: .timeZone) } throws: {
            if case .invalidMetadata(key: "time_zone", value: "Mars/Olympus")? = $0 as? CareStoreError {
                true
            } else {
                false
            }
        }
        try fixture.store.setMetadata("Europe/Paris", for: .timeZone)
        #expect(fixture.store.calendar.timeZone.identifier == "Europe/Paris")
    }

    @Test func integrityCheckPasses() throws {
        #expect(try fixture.store.integrityProblem() == nil)
    }
}

@Suite struct StorePathTests {
    private func resolve(_ option: String? = nil, _ environment: [String: String] = [:], systemWritable: Bool = false)
        -> StorePath
    {
        StorePath.resolve(
            option: option, environment: environment, homeDirectory: "/home/fallback",
            isWritableDirectory: { $0 == "/var/lib/romdev" && systemWritable })
    }

    @Test func theOptionWins() {
        #expect(
            resolve("/tmp/x.sqlite", ["ROMDEV_STORE": "/tmp/env.sqlite"], systemWritable: true)
                == StorePath(path: "/tmp/x.sqlite", source: .option))
    }

    @Test func thenTheEnvironment() {
        #expect(
            resolve(nil, ["ROMDEV_STORE": "/tmp/env.sqlite"], systemWritable: true)
                == StorePath(path: "/tmp/env.sqlite", source: .environment))
    }

    @Test func thenTheSystemStoreWhenWritable() {
        #expect(
            resolve(nil, ["HOME": "/home/pat"], systemWritable: true)
                == StorePath(path: "/var/lib/romdev/care.sqlite", source: .system))
    }

    @Test func thenXDGDataHome() {
        #expect(resolve(nil, ["XDG_DATA_HOME": "/data", "HOME": "/home/pat"]).path == "/data/romdev/care.sqlite")
        #expect(resolve(nil, ["HOME": "/home/pat"]).path == "/home/pat/.local/share/romdev/care.sqlite")
        // A relative XDG_DATA_HOME is ignored, as the specification asks.
        #expect(
            resolve(nil, ["XDG_DATA_HOME": "data", "HOME": "/home/pat"]).path
                == "/home/pat/.local/share/romdev/care.sqlite")
        #expect(resolve(nil, [:]).path == "/home/fallback/.local/share/romdev/care.sqlite")
        #expect(resolve("", ["ROMDEV_STORE": ""]).source == .user)
    }
}
