import Foundation
import SQLite
import TestSupport
import Testing

@Suite struct MigratorTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("test.sqlite")
    }

    private func migrator(_ count: Int) -> Migrator {
        var migrator = Migrator()
        let steps: [(String, @Sendable (Connection) throws -> Void)] = [
            ("createItem", { try $0.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)") }),
            ("addItemNote", { try $0.execute("ALTER TABLE item ADD COLUMN note TEXT") }),
            ("createTag", { try $0.execute("CREATE TABLE tag (item_id INTEGER REFERENCES item(id))") }),
        ]
        for (name, body) in steps.prefix(count) { migrator.registerMigration(name, body) }
        return migrator
    }

    @Test func appliesMigrationsInOrderEachInItsOwnTransaction() throws {
        let log = SQLLog()
        let database = try Database(path: path, configuration: log.configuration)
        try migrator(2).migrate(database)
        #expect(try migrator(2).appliedMigrations(database) == ["createItem", "addItemNote"])
        #expect(try database.read { try $0.fetchValue("PRAGMA user_version", as: Int.self) } == 2)
        #expect(log.all.filter { $0 == "BEGIN IMMEDIATE TRANSACTION" }.count == 2)
        try database.write { try $0.execute("INSERT INTO item (name, note) VALUES (?, ?)", ["a", "b"]) }
    }

    @Test func migratingTwiceChangesNothingAndTakesNoWriteLock() throws {
        try migrator(2).migrate(try Database(path: path))
        let log = SQLLog()
        let database = try Database(path: path, configuration: log.configuration)
        try migrator(2).migrate(database)
        #expect(!log.all.contains("BEGIN IMMEDIATE TRANSACTION"))
        #expect(try migrator(2).appliedMigrations(database) == ["createItem", "addItemNote"])
    }

    @Test func appliesOnlyNewMigrations() throws {
        try migrator(1).migrate(try Database(path: path))
        let database = try Database(path: path)
        try migrator(3).migrate(database)
        #expect(try migrator(3).appliedMigrations(database) == ["createItem", "addItemNote", "createTag"])
        #expect(try database.read { try $0.fetchValue("PRAGMA user_version", as: Int.self) } == 3)
    }

    @Test func refusesADatabaseNewerThanItself() throws {
        try migrator(3).migrate(try Database(path: path))
        let database = try Database(path: path)
        #expect(throws: MigrationError.databaseIsNewer(databaseVersion: 3, supportedVersion: 2)) {
            try migrator(2).migrate(database)
        }
        #expect(try migrator(3).appliedMigrations(database).count == 3)
    }

    @Test func refusesADatabaseWithAnUnknownMigration() throws {
        var other = Migrator()
        other.registerMigration("somethingElse") { try $0.execute("CREATE TABLE other (x)") }
        try other.migrate(try Database(path: path))
        #expect(throws: MigrationError.databaseIsNewer(databaseVersion: 1, supportedVersion: 2)) {
            try migrator(2).migrate(try Database(path: path))
        }
    }

    @Test func aFailingMigrationIsRolledBackAndNotRecorded() throws {
        struct Broken: Error {}
        var migrator = migrator(1)
        migrator.registerMigration("broken") { db in
            try db.execute("CREATE TABLE half (x)")
            throw Broken()
        }
        let database = try Database(path: path)
        #expect(throws: Broken.self) { try migrator.migrate(database) }
        #expect(try migrator.appliedMigrations(database) == ["createItem"])
        let tables = try database.read { try $0.fetchAll("SELECT name FROM sqlite_master WHERE name = 'half'") }
        #expect(tables.isEmpty)
        #expect(try database.read { try $0.fetchValue("PRAGMA user_version", as: Int.self) } == 1)
    }

    @Test func aMigrationLeavingADanglingForeignKeyIsRolledBack() throws {
        var migrator = migrator(3)
        migrator.registerMigration("dangling") { try $0.execute("INSERT INTO tag (item_id) VALUES (99)") }
        let database = try Database(path: path)
        #expect(throws: MigrationError.foreignKeyViolation(migration: "dangling", table: "tag")) {
            try migrator.migrate(database)
        }
        #expect(try migrator.appliedMigrations(database) == ["createItem", "addItemNote", "createTag"])
    }
}
