import CareStorage
import Foundation
import SQLite
import Testing

@Suite struct CareStoreOpeningTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    @Test func openingCreatesParentDirectories() throws {
        let path = fixture.directory.appendingPathComponent("a/b/care.sqlite").path
        _ = try CareStore(path: path, timeZone: fixture.calendar.timeZone)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func theDeviceIDIsMintedOnceWithTheStore() throws {
        let id = try fixture.store.storeMetadata().deviceID
        let reopened = try CareStore(path: fixture.path, timeZone: fixture.calendar.timeZone)
        #expect(try reopened.storeMetadata().deviceID == id)
        let other = try CareStore(path: fixture.directory.appendingPathComponent("other.sqlite").path,
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
            guard case .storeTooNew(storeVersion: newer, supportedVersion: CareStore.schemaVersion)? = $0 as? CareStoreError
            else { return false }
            return String(describing: $0) == "store schema version \(newer) is newer than this romdev"
                + " (\(CareStore.schemaVersion)): upgrade romdev"
        }
        #expect(try fixture.dump() == before)
    }

    @Test func refusesAFileThatIsNotAStore() throws {
        let path = fixture.directory.appendingPathComponent("notes.sqlite").path
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        #expect { try CareStore(path: path, timeZone: fixture.calendar.timeZone) } throws: {
            guard case .database(let error)? = $0 as? CareStoreError else { return false }
            return error.resultCode == .SQLITE_NOTADB
        }
    }

    @Test func metadataRoundTripsAndRefusesAnUnknownZone() throws {
        try fixture.store.setMetadata("right", for: .limb)
        #expect(try fixture.store.metadata(.limb) == "right")
        #expect(try fixture.store.storeMetadata().limb == .right)
        #expect { try fixture.store.setMetadata("Mars/Olympus", for: .timeZone) } throws: {
            if case .invalidMetadata(key: "time_zone", value: "Mars/Olympus")? = $0 as? CareStoreError { true } else { false }
        }
        try fixture.store.setMetadata("Europe/Paris", for: .timeZone)
        #expect(fixture.store.calendar.timeZone.identifier == "Europe/Paris")
    }

    @Test func integrityCheckPasses() throws {
        #expect(try fixture.store.integrityProblem() == nil)
    }
}

@Suite struct StorePathTests {
    private func resolve(_ option: String? = nil, _ environment: [String: String] = [:], systemWritable: Bool = false) -> StorePath {
        StorePath.resolve(option: option, environment: environment, homeDirectory: "/home/fallback",
                          isWritableDirectory: { $0 == "/var/lib/romdev" && systemWritable })
    }

    @Test func theOptionWins() {
        #expect(resolve("/tmp/x.sqlite", ["ROMDEV_STORE": "/tmp/env.sqlite"], systemWritable: true)
            == StorePath(path: "/tmp/x.sqlite", source: .option))
    }

    @Test func thenTheEnvironment() {
        #expect(resolve(nil, ["ROMDEV_STORE": "/tmp/env.sqlite"], systemWritable: true)
            == StorePath(path: "/tmp/env.sqlite", source: .environment))
    }

    @Test func thenTheSystemStoreWhenWritable() {
        #expect(resolve(nil, ["HOME": "/home/pat"], systemWritable: true)
            == StorePath(path: "/var/lib/romdev/care.sqlite", source: .system))
    }

    @Test func thenXDGDataHome() {
        #expect(resolve(nil, ["XDG_DATA_HOME": "/data", "HOME": "/home/pat"]).path == "/data/romdev/care.sqlite")
        #expect(resolve(nil, ["HOME": "/home/pat"]).path == "/home/pat/.local/share/romdev/care.sqlite")
        // A relative XDG_DATA_HOME is ignored, as the specification asks.
        #expect(resolve(nil, ["XDG_DATA_HOME": "data", "HOME": "/home/pat"]).path == "/home/pat/.local/share/romdev/care.sqlite")
        #expect(resolve(nil, [:]).path == "/home/fallback/.local/share/romdev/care.sqlite")
        #expect(resolve("", ["ROMDEV_STORE": ""]).source == .user)
    }
}
