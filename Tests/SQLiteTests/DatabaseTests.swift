import Foundation
import SQLite
import TestSupport
import Testing

@Suite struct DatabaseTests {
    let directory: TemporaryDirectory
    let log = SQLLog()
    let database: Database

    init() throws {
        directory = try TemporaryDirectory()
        database = try Database(path: directory.path("test.sqlite"), configuration: log.configuration)
        try database.write { try $0.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)") }
    }

    // MARK: - Opening

    @Test func opensWithWALFullSyncAndForeignKeys() throws {
        let (mode, synchronous, foreignKeys) = try database.read { db in
            (
                try db.fetchValue("PRAGMA journal_mode", as: String.self),
                try db.fetchValue("PRAGMA synchronous", as: Int.self),
                try db.fetchValue("PRAGMA foreign_keys", as: Int.self)
            )
        }
        #expect(mode == "wal")
        #expect(synchronous == 2)  // FULL
        #expect(foreignKeys == 1)
    }

    @Test func refusesAFileThatIsNotADatabase() throws {
        let path = directory.path("text.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect { try Database(path: path) } throws: { error in
            ResultCode.SQLITE_NOTADB ~= error
        }
    }

    @Test func refusesAMissingDirectory() throws {
        #expect { try Database(path: directory.path("missing/test.sqlite")) } throws: { error in
            ResultCode.SQLITE_CANTOPEN ~= error
        }
    }

    // MARK: - Transactions

    @Test func writeUsesBeginImmediateAndCommits() throws {
        log.clear()
        try database.write { try $0.execute("INSERT INTO item (name) VALUES (?)", ["a"]) }
        #expect(log.all == ["BEGIN IMMEDIATE TRANSACTION", "INSERT INTO item (name) VALUES (?)", "COMMIT TRANSACTION"])
        #expect(try count() == 1)
    }

    @Test func readUsesADeferredTransaction() throws {
        log.clear()
        _ = try database.read { try $0.fetchAll("SELECT * FROM item") }
        #expect(log.all == ["BEGIN DEFERRED TRANSACTION", "SELECT * FROM item", "COMMIT TRANSACTION"])
    }

    @Test func writeRollsBackWhenTheBodyThrows() throws {
        struct Abort: Error {}
        log.clear()
        #expect(throws: Abort.self) {
            try database.write { db in
                try db.execute("INSERT INTO item (name) VALUES (?)", ["a"])
                try db.execute("INSERT INTO item (name) VALUES (?)", ["b"])
                throw Abort()
            }
        }
        #expect(log.all.last == "ROLLBACK TRANSACTION")
        #expect(try count() == 0)
    }

    @Test func writeRollsBackWhenAStatementFails() throws {
        #expect {
            try database.write { db in
                try db.execute("INSERT INTO item (name) VALUES (?)", ["a"])
                try db.execute("INSERT INTO item (name) VALUES (?)", ["a"])
            }
        } throws: { ResultCode.SQLITE_CONSTRAINT ~= $0 }
        #expect(try count() == 0)
        // The connection is usable afterwards, including the statement that failed.
        try database.write { try $0.execute("INSERT INTO item (name) VALUES (?)", ["a"]) }
        #expect(try count() == 1)
    }

    @Test func aWriterWaitsForAnotherConnectionThenFailsWithBusy() throws {
        let other = try Database(path: database.path, configuration: .init(busyTimeout: .milliseconds(50)))
        try database.write { db in
            try db.execute("INSERT INTO item (name) VALUES (?)", ["held"])
            #expect { try other.write { try $0.execute("INSERT INTO item (name) VALUES (?)", ["blocked"]) } } throws: {
                ResultCode.SQLITE_BUSY ~= $0
            }
            // Readers are not blocked by the writer in WAL mode, and see the last commit.
            #expect(try other.read { try $0.fetchValue("SELECT count(*) FROM item", as: Int.self) } == 0)
        }
        #expect(try count() == 1)
    }

    // MARK: - Errors

    @Test func errorsCarryTheSQLButNotTheArguments() throws {
        let secret = "pain-score-7"
        try database.write { try $0.execute("INSERT INTO item (name) VALUES (?)", [secret]) }
        // Swift 6.0's #require(throws:) returns nothing, so the error is caught here.
        let error: DatabaseError
        do {
            try database.write { try $0.execute("INSERT INTO item (name) VALUES (?)", [secret]) }
            Issue.record("a duplicate name was inserted")
            return
        } catch let caught as DatabaseError {
            error = caught
        }
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(error.sql == "INSERT INTO item (name) VALUES (?)")
        #expect(error.message?.lowercased() == "unique constraint failed: item.name")
        #expect(
            String(describing: error).lowercased()
                == "sqlite error 2067: unique constraint failed: item.name - while executing `insert into item (name) values (?)`"
        )
        #expect(!String(describing: error).contains(secret))
    }

    @Test func prepareErrorsCarryTheSQL() throws {
        let error: DatabaseError
        do {
            _ = try database.read { try $0.fetchAll("SELECT missing FROM item") }
            Issue.record("a missing column was selected")
            return
        } catch let caught as DatabaseError {
            error = caught
        }
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.sql == "SELECT missing FROM item")
        #expect(error.message?.lowercased() == "no such column: missing")
    }

    @Test func wrongArgumentCountIsAnError() throws {
        #expect { try database.write { try $0.execute("INSERT INTO item (name) VALUES (?)", []) } } throws: {
            ResultCode.SQLITE_RANGE ~= $0
        }
    }

    @Test func primaryCodesMatchExtendedCodes() {
        #expect(ResultCode.SQLITE_CONSTRAINT ~= ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(ResultCode.SQLITE_BUSY ~= ResultCode.SQLITE_BUSY_SNAPSHOT)
        #expect(!(ResultCode.SQLITE_CONSTRAINT_UNIQUE ~= ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY))
        #expect(!(ResultCode.SQLITE_BUSY ~= ResultCode.SQLITE_CONSTRAINT))
    }

    @Test func foreignKeysAreEnforced() throws {
        try database.write {
            try $0.execute("CREATE TABLE tag (item_id INTEGER NOT NULL REFERENCES item(id))")
        }
        let error: DatabaseError
        do {
            try database.write { try $0.execute("INSERT INTO tag (item_id) VALUES (?)", [42]) }
            Issue.record("a dangling reference was inserted")
            return
        } catch let caught as DatabaseError {
            error = caught
        }
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
    }

    // MARK: - Values

    @Test func valuesRoundTrip() throws {
        try database.write {
            try $0.execute("CREATE TABLE value (i INTEGER, r REAL, t TEXT, b BLOB, n INTEGER, flag INTEGER)")
            try $0.execute(
                "INSERT INTO value VALUES (?, ?, ?, ?, ?, ?)",
                [Int64.min, 0.1, "é ✓ \u{0}x", DatabaseValue.blob([0, 1, 255]), Int?.none, true])
        }
        let row = try #require(try database.read { try $0.fetchOne("SELECT * FROM value") })
        #expect(try row.decode("i", as: Int64.self) == .min)
        #expect(try row.decode("r", as: Double.self) == 0.1)
        #expect(row[3] == .blob([0, 1, 255]))
        #expect(try row.decode("n", as: Int?.self) == nil)
        #expect(try row.decode("flag", as: Bool.self) == true)
        #expect(throws: RowDecodingError.self) { try row.decode("n", as: Int.self) }
        #expect(throws: RowDecodingError.self) { try row.decode("missing", as: Int.self) }
    }

    @Test func textRoundTripsUnchanged() throws {
        let text = "Ça va — 😀"
        try database.write { try $0.execute("INSERT INTO item (name) VALUES (?)", [text]) }
        #expect(try database.read { try $0.fetchValue("SELECT name FROM item", as: String.self) } == text)
    }

    private func count() throws -> Int? {
        try database.read { try $0.fetchValue("SELECT count(*) FROM item", as: Int.self) }
    }
}
