import Care
import Foundation
import LinuxSystem
import SQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why the care store refused or failed an operation. Every refusal leaves the store unchanged.
///
/// Cases carry the ids and occurrences involved and wrap the underlying error (SQLite's, the
/// care rules'), so callers can tell them apart; the descriptions say what to do.
public enum CareStoreError: Error, Sendable {
    /// The store's directory (or one above it) could not be created.
    case cannotCreateDirectory(path: String, errno: Errno)
    /// The store was written by a newer romdev (schema `storeVersion`, this binary knows up to
    /// `supportedVersion`).
    case storeTooNew(storeVersion: Int, supportedVersion: Int)
    /// The store file cannot be opened (missing where it must exist, no permission…).
    case cannotOpen(path: String, errno: Errno)
    /// The store's schema is older than this romdev's, and a reader may not upgrade it.
    case upgradeNeeded(path: String)
    /// The file is not a care store (empty, not SQLite, another program's database); it is left
    /// untouched.
    case notAStore(path: String, reason: NotAStoreReason)
    /// The store is damaged (SQLite's `quick_check` or a read found bad pages); nothing was written.
    case damaged(path: String, reason: String)
    /// The disk holding the store is full; the change was rolled back.
    case diskFull(path: String)
    /// SQLite failed: no permission, a disk error, busy past the timeout…
    case database(DatabaseError)
    /// A stored row could not be read back (a bad schedule JSON, a NULL where a value belongs).
    case unreadableRow(table: String, reason: String)
    /// A task with this id exists, or existed and was deleted; ids are never reused.
    case duplicateTaskID(String)
    /// A task version with this UUID already exists.
    case duplicateTaskVersion(UUID)
    /// No task has this id.
    case unknownTask(id: String)
    /// No task version has this UUID.
    case unknownTaskVersion(UUID)
    /// The care rules refused the change (an update orphaning outcomes, an occurrence outside the
    /// schedule, a second outcome for one event…).
    case care(CareError)
    /// A schedule could not be built (seeding the care plan).
    case schedule(ScheduleError)
    /// Onboarding is not done: nothing but the onboarding task may be recorded yet.
    case onboardingRequired(taskID: String)
    /// The onboarding task cannot be deleted: it records consent, which every other outcome needs.
    case onboardingTaskKept
    /// The task has no live outcome for this occurrence.
    case noOutcome(taskID: String, occurrence: Int)
    /// A metadata value in the store is not valid (an unknown time zone identifier…).
    case invalidMetadata(key: String, value: String)
    /// An outcome value is a double that is not finite (NaN or infinity), which could not be
    /// stored or exported faithfully. `position` counts the outcome's values from 0.
    case nonFiniteValue(taskID: String, occurrence: Int, position: Int)
    /// A query interval must not be empty: `start < end`.
    case emptyInterval(start: Date, end: Date)
    /// A query of events or adherence spans more than `maximumDays` days.
    case intervalTooLong(start: Date, end: Date, maximumDays: Int)
}

extension CareStoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .cannotCreateDirectory(path, errno):
            "cannot create the store directory \(path): \(errno)"
        case let .storeTooNew(storeVersion, supportedVersion):
            "store schema version \(storeVersion) is newer than this romdev (\(supportedVersion)): upgrade romdev"
        case let .cannotOpen(path, errno):
            "cannot open the care store \(path): \(errno)"
        case let .upgradeNeeded(path):
            "cannot open the care store \(path): its schema must be upgraded first, by a command that writes to it"
        case let .notAStore(path, reason):
            "\(path) is not a care store: \(reason); it was left untouched"
        case let .damaged(path, reason):
            // quick_check answers one line per problem ("*** in database main ***", "Page 9: …").
            "the care store \(path) is damaged (\(reason.split(whereSeparator: \.isNewline).joined(separator: "; ")));"
                + " nothing was written"
        case let .diskFull(path):
            "the disk holding the care store \(path) is full; nothing was written"
        case let .database(error):
            switch error.extendedResultCode {
            case .SQLITE_BUSY:
                "the care store is busy (another romdev process is writing); try again: \(error)"
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
                "cannot write the care store (check the file's owner and permissions, or choose"
                    + " another with --store): \(error)"
            default:
                "care store: \(error)"
            }
        case let .unreadableRow(table, reason):
            "care store: a row of \(table) cannot be read: \(reason)"
        case let .duplicateTaskID(id):
            "task '\(id)' already exists (task ids are never reused, even after a delete); update it instead"
        case let .duplicateTaskVersion(uuid):
            "task version \(uuid.uuidString) already exists"
        case let .unknownTask(id):
            "no task '\(id)'"
        case let .unknownTaskVersion(uuid):
            "no task version \(uuid.uuidString)"
        case let .care(error):
            "\(error)"
        case let .schedule(error):
            "\(error)"
        case let .onboardingRequired(taskID):
            "cannot record '\(taskID)' before onboarding is done: complete onboarding first"
        case .onboardingTaskKept:
            "task '\(RecoverCarePlan.TaskID.onboarding)' cannot be deleted: it records the patient's consent"
        case let .noOutcome(taskID, occurrence):
            "task '\(taskID)' has no outcome for occurrence \(occurrence)"
        case let .invalidMetadata(key, value):
            "care store setting \(key) has an invalid value '\(value)'"
        case let .nonFiniteValue(taskID, occurrence, position):
            "task '\(taskID)' occurrence \(occurrence): value \(position + 1) is not a finite number"
        case let .emptyInterval(start, end):
            "the interval from \(start.formatted(.iso8601)) to \(end.formatted(.iso8601)) is empty: the end must be after the start"
        case let .intervalTooLong(start, end, maximumDays):
            "the interval from \(start.formatted(.iso8601)) to \(end.formatted(.iso8601))"
                + " is longer than \(maximumDays) days"
        }
    }
}

/// What makes a file other than a care store.
public enum NotAStoreReason: Hashable, Sendable, CustomStringConvertible {
    /// A directory, a device, a FIFO…
    case notRegularFile
    /// A file of 0 bytes.
    case emptyFile
    /// Shorter than SQLite's 100-byte header.
    case tooShort(bytes: Int)
    /// No SQLite header.
    case notSQLite
    /// An SQLite database without tables.
    case emptyDatabase
    /// Another program's database.
    case foreignDatabase

    public var description: String {
        switch self {
        case .notRegularFile: "not a regular file"
        case .emptyFile: "an empty file (0 bytes)"
        case .tooShort(let bytes): "\(bytes) bytes, too short for a database"
        case .notSQLite: "not an SQLite database"
        case .emptyDatabase: "an empty database"
        case .foreignDatabase: "a database without the care store's tables"
        }
    }
}

extension CareStoreError {
    /// Wraps an error from the layers below, met on the store at `path`; store errors pass through.
    init(wrapping error: any Error, path: String) {
        switch error {
        case let error as CareStoreError: self = error
        case let error as CareError: self = .care(error)
        case let error as ScheduleError: self = .schedule(error)
        case let error as DatabaseError:
            switch error.extendedResultCode {
            case .SQLITE_FULL:
                self = .diskFull(path: path)
            // A full disk shows as an I/O error where SQLite extends a file itself (the -shm).
            case .SQLITE_IOERR where error.systemErrno == ENOSPC:
                self = .diskFull(path: path)
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                self = .damaged(path: path, reason: error.message ?? error.extendedResultCode.description)
            default:
                self = .database(error)
            }
        case let MigrationError.databaseIsNewer(storeVersion, supportedVersion):
            self = .storeTooNew(storeVersion: storeVersion, supportedVersion: supportedVersion)
        case let error as MigrationError:
            self = .database(DatabaseError(resultCode: .SQLITE_ERROR, message: error.description))
        // Row readers name their table; these are the leftovers (the migrations table…).
        case let error as RowDecodingError: self = .unreadableRow(table: "schema_migrations", reason: error.description)
        default: self = .unreadableRow(table: "unknown", reason: String(describing: error))
        }
    }
}
