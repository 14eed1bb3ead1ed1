import LinuxSystem
import SQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension CareStore {
    /// What a caller does with the store, which decides how it is opened and what may be created.
    ///
    /// No access turns an existing file that is not already a care store into one, except
    /// ``initialize`` with a 0-byte file or an SQLite database without tables: an empty or
    /// truncated file is reported, never silently replaced by an empty store.
    public enum Access: Sendable {
        /// Reads only: the file is opened read-only, so a user without write access to it (or
        /// to its directory, once a writer has created the WAL files) can read it, and nothing
        /// is written, not even a migration. Writes fail with `SQLITE_READONLY`.
        case readOnly
        /// Reads and writes a store that exists.
        case readWrite
        /// As ``readWrite``, creating the store when there is no file (the daemon).
        case create
        /// As ``create``, also adopting an existing 0-byte file or an SQLite database without
        /// tables (`romdev init`, which may be given a file made with `mktemp`).
        case initialize

        var writes: Bool { self != .readOnly }
    }

    /// The permissions of a store file this romdev creates, whatever the umask: the owner and the
    /// group (group `romdev` on the appliance: therapists) may read and write, others not.
    /// SQLite gives the `-wal` and `-shm` files the store file's permissions. Who may reach the
    /// file is decided by its directory (`/var/lib/romdev` is 0770, a user's data directory 0700).
    public static let fileMode: mode_t = 0o660

    /// What is at a store path before SQLite opens it.
    enum FileState {
        /// Nothing: a store may be created.
        case missing
        /// A regular file of 0 bytes.
        case empty
        /// A regular file starting with SQLite's header.
        case database
        /// An SQLite database in rollback-journal mode that romdev never wrote: every store it
        /// writes is in WAL mode with a `user_version`, and without a WAL the header is the
        /// database's own (in WAL mode it may lag what the `-wal` file holds). `hasSchema`: any
        /// table, index or view in it.
        case unwrittenDatabase(hasSchema: Bool)
    }

    /// Looks at `path` without opening it as a database: the cheap checks every open makes.
    ///
    /// - Throws: ``CareStoreError/notAStore(path:reason:)`` for a directory, a device, a file
    ///   too short for SQLite's 100-byte header or one without its magic string.
    static func inspect(_ path: String) throws(CareStoreError) -> FileState {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let error = Errno.current
            if error == .noSuchFileOrDirectory { return .missing }
            throw .cannotOpen(path: path, errno: error)
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notAStore(path: path, reason: .notRegularFile) }
        if status.st_size == 0 { return .empty }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, errno: .current) }
        defer { Glibc.close(descriptor) }
        // "Every valid SQLite database file begins with the following 16 bytes (in hex): 53 51 4c
        // 69 74 65 20 66 6f 72 6d 61 74 20 33 00" (sqlite.org/fileformat.html, 1.3).
        let magic = Array("SQLite format 3".utf8) + [0]
        // The file header, then the header of page 1's b-tree, the schema table.
        var header = [UInt8](repeating: 0, count: 108)
        let count = header.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 100 else {
            throw .notAStore(path: path, reason: .tooShort(bytes: max(count, 0)))
        }
        guard Array(header.prefix(magic.count)) == magic else {
            throw .notAStore(path: path, reason: .notSQLite)
        }
        // Offset 18: 1 for a rollback journal, 2 for WAL; 60: user_version, big-endian; 100: the
        // schema table's page type (13, a leaf, while it fits in page 1) and at 103 its number of
        // cells, one per table, index or view (sqlite.org/fileformat.html, 1.3 and 1.6).
        let userVersion = header[60..<64].reduce(0) { $0 << 8 | UInt32($1) }
        guard header[18] == 1, userVersion == 0 else { return .database }
        let isEmptyLeaf = count >= 105 && header[100] == 13 && header[103] == 0 && header[104] == 0
        return .unwrittenDatabase(hasSchema: !isEmptyLeaf)
    }

    /// Creates `directory` and the missing ones above it (`mkdir -p`), with the umask's modes; one
    /// created meanwhile by another process is fine.
    static func createDirectories(_ directory: String) throws(CareStoreError) {
        var made = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            made += "/" + component
            if mkdir(made, 0o777) != 0 {
                let error = Errno.current
                var status = stat()
                guard error == .fileExists, stat(made, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                    throw .cannotCreateDirectory(path: made, errno: error)
                }
            }
        }
    }

    /// Creates an empty store file with ``fileMode``; a file created meanwhile by another process
    /// is left to the checks that follow.
    static func createFile(_ path: String) throws(CareStoreError) {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else {
            let error = Errno.current
            if error == .fileExists { return }
            throw .cannotOpen(path: path, errno: error)
        }
        // The umask (0022 in a login shell, 0007 in the unit) would take the group's write bit.
        let changed = fchmod(descriptor, fileMode)
        let error = Errno.current
        Glibc.close(descriptor)
        guard changed == 0 else { throw .cannotOpen(path: path, errno: error) }
    }

    /// Brings an opened database to a usable store, or refuses it.
    ///
    /// A file that was there before is checked before anything is written to it: it must hold the
    /// store's tables, at a schema version this romdev knows; a writer also runs
    /// `PRAGMA quick_check`, so a damaged file (bad pages, truncated) is refused before a write
    /// could spread the damage. quick_check reads every page once (O(N); on the 5-year store of
    /// `make bench` see its "open" line), unlike `integrity_check`, which also cross-checks every
    /// index against its table (O(N log N)). Readers skip it: reading changes nothing, and
    /// `romdev export` should still get out what a damaged store holds.
    static func prepare(_ database: Database, path: String, access: Access, fresh: Bool) throws {
        var fresh = fresh
        if !fresh {
            let applied = try migrator.appliedMigrations(database)
            if applied.isEmpty {
                let tables =
                    try database.read {
                        try $0.fetchValue("SELECT count(*) FROM sqlite_master", as: Int.self)
                    } ?? 0
                guard tables == 0, access == .initialize else {
                    throw CareStoreError.notAStore(path: path, reason: tables == 0 ? .emptyDatabase : .foreignDatabase)
                }
                fresh = true
            }
        }
        if access.writes && !fresh {
            let problem = try database.read { try $0.fetchValue("PRAGMA quick_check(1)", as: String.self) }
            if problem != "ok" {
                throw CareStoreError.damaged(path: path, reason: problem ?? "no answer to quick_check")
            }
        }
        if access.writes {
            try migrator.migrate(database)
        } else if try !migrator.pendingMigrations(database).isEmpty {
            throw CareStoreError.upgradeNeeded(path: path)
        }
    }
}
