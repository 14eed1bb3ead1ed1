/// Brings a database schema up to date with named, ordered migrations.
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction together with the record that it
/// ran, so a crash leaves it either fully applied or not at all, and two processes opening a new
/// database at once apply it exactly once. The names applied are kept in `schema_migrations`; the
/// schema version (how many migrations are applied) in `PRAGMA user_version`.
///
/// A database whose version is higher than ``schemaVersion``, or which records a migration this
/// migrator does not know, was written by a newer program: ``migrate(_:)`` refuses it with
/// ``MigrationError/databaseIsNewer(databaseVersion:supportedVersion:)`` rather than guess.
public struct Migrator: Sendable {
    private var migrations: [(name: String, body: @Sendable (Connection) throws -> Void)] = []

    public init() {}

    /// Appends a migration. Never rename, reorder or edit a migration once it has shipped:
    /// databases in the field have recorded it by name.
    public mutating func registerMigration(_ name: String, _ body: @escaping @Sendable (Connection) throws -> Void) {
        precondition(!migrations.contains { $0.name == name }, "duplicate migration name \(name)")
        migrations.append((name, body))
    }

    /// The schema version this migrator produces: the number of registered migrations.
    public var schemaVersion: Int { migrations.count }

    /// Applies the migrations not yet applied, in order.
    ///
    /// - Throws: ``MigrationError`` for a newer database or a foreign key violation left by a
    ///   migration; ``DatabaseError`` or whatever a migration throws (that migration is rolled back).
    public func migrate(_ database: Database) throws {
        // The common case, an up-to-date database, only reads.
        if try database.read({ try pendingMigrations($0) }).isEmpty { return }
        for migration in migrations {
            try database.write { db in
                try db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL) STRICT")
                // Checked again under the write lock: another process may have just applied it.
                guard try pendingMigrations(db).contains(where: { $0 == migration.name }) else { return }
                // A migration may rebuild a table in steps that break references in between;
                // foreign keys are checked once it is done (defer_foreign_keys ends with the
                // transaction).
                try db.execute("PRAGMA defer_foreign_keys = ON")
                try migration.body(db)
                if let violation = try db.fetchOne("PRAGMA foreign_key_check") {
                    throw MigrationError.foreignKeyViolation(
                        migration: migration.name, table: (try? violation.decode("table", as: String.self)) ?? "?")
                }
                try db.execute("INSERT INTO schema_migrations (name) VALUES (?)", [migration.name])
                try db.execute("PRAGMA user_version = \(try appliedMigrations(db).count)")
            }
        }
    }

    /// The names of the migrations not yet applied, in order, for a caller that cannot migrate
    /// (a read-only connection).
    ///
    /// - Throws: ``MigrationError/databaseIsNewer(databaseVersion:supportedVersion:)``.
    public func pendingMigrations(_ database: Database) throws -> [String] {
        try database.read { try pendingMigrations($0) }
    }

    /// The names of the migrations recorded in the database, in the order they were applied.
    public func appliedMigrations(_ database: Database) throws -> [String] {
        try database.read { try appliedMigrations($0) }
    }

    /// The names still to apply, after checking the database is not newer than this migrator.
    private func pendingMigrations(_ db: Connection) throws -> [String] {
        let applied = try appliedMigrations(db)
        let version = try db.fetchValue("PRAGMA user_version", as: Int.self) ?? 0
        let known = Set(migrations.map(\.name))
        if version > schemaVersion || applied.contains(where: { !known.contains($0) }) {
            throw MigrationError.databaseIsNewer(
                databaseVersion: max(version, applied.count), supportedVersion: schemaVersion)
        }
        return migrations.map(\.name).filter { !applied.contains($0) }
    }

    private func appliedMigrations(_ db: Connection) throws -> [String] {
        let hasTable =
            try db.fetchOne(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") != nil
        guard hasTable else { return [] }
        return try db.fetchAll("SELECT name FROM schema_migrations ORDER BY rowid").map { try $0.decode("name") }
    }
}

/// Why a ``Migrator`` refused a database.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database was migrated by a newer program (schema version `databaseVersion`, while this
    /// program knows versions up to `supportedVersion`).
    case databaseIsNewer(databaseVersion: Int, supportedVersion: Int)
    /// A migration left a row whose foreign key points nowhere, in `table`. The migration was rolled back.
    case foreignKeyViolation(migration: String, table: String)

    public var description: String {
        switch self {
        case let .databaseIsNewer(databaseVersion, supportedVersion):
            "database schema version \(databaseVersion) is newer than this program supports (\(supportedVersion))"
        case let .foreignKeyViolation(migration, table):
            "migration \(migration) left a foreign key violation in table \(table)"
        }
    }
}
