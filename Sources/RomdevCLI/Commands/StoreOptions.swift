import Care
import CareStorage
import Foundation
import LinuxSystem

/// The store selection every care command takes: `--store PATH`, else the rules of
/// `StorePath.resolve` (`$ROMDEV_STORE`, the system store, the user's data directory).
struct StoreOptions: Hashable {
    static let store = Option.value(
        "store", valueName: "path",
        help:
            "The care store file. Default: $ROMDEV_STORE, else /var/lib/romdev/care.sqlite when writable, else $XDG_DATA_HOME/romdev/care.sqlite."
    )

    /// The options, for a command's option list.
    static let options = [store]

    /// The `--store` value, if given.
    let path: String?

    /// - Throws: `UsageError` for a `--store` value that cannot name a store file (empty, a
    ///   directory, an unexpanded `~`).
    init(_ values: ParsedValues) throws {
        path = try values.value(Self.store, PathArgument.store)
    }

    init(path: String?) {
        self.path = path
    }

    /// Where the store is for this context.
    /// - Throws: `CommandFailure` (exit status 78) for a `$ROMDEV_STORE` or configured path that
    ///   cannot name a store file; the `--store` value was checked when parsed.
    func resolve(in context: CommandContext) throws -> StorePath {
        let location = unchecked(in: context)
        if let problem = StorePath.problem(with: location.path) {
            throw CommandFailure(
                "the care store path '\(TerminalText.excerpt(location.path))' (from \(location.source.rawValue)) cannot be used",
                why: problem, exitStatus: 78)
        }
        return location
    }

    /// Where the store is, and whether it exists, with nothing but a regular file there (SQLite
    /// would wait forever on a FIFO and fail obscurely on a directory or device).
    /// - Throws: `CommandFailure` for a path that cannot name a store file or holds something else.
    func checkedLocation(in context: CommandContext) throws -> (location: StorePath, exists: Bool) {
        let location = try resolve(in: context)
        let type = try attempt("could not open the care store at \(location.path)") {
            try FilePath(location.path).fileType(followingLinks: true)
        }
        if let type, type != .regular {
            throw CommandFailure(
                "could not open the care store at \(location.path)", why: "it is \(type), not a regular file",
                hint: "name the store file itself, e.g. \(location.path)/\(StorePath.fileName)")
        }
        return (location, type != nil)
    }

    private func unchecked(in context: CommandContext) -> StorePath {
        StorePath.resolve(
            option: path, environment: context.environment,
            homeDirectory: context.environment["HOME"] ?? NSHomeDirectory(),
            isWritableDirectory: { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                    && isDirectory.boolValue && FileManager.default.isWritableFile(atPath: path)
            })
    }

    /// Opens the store for `access`: read-only for commands that only read, so a user without
    /// write access can read; only `init` creates it.
    ///
    /// - Parameters:
    ///   - access: What the command does with the store. A missing store is a failure that
    ///     points to `romdev init`, except for `.initialize`.
    ///   - timeZone: The zone that defines days until the store records its own.
    func open(in context: CommandContext, access: CareStore.Access, timeZone: TimeZone? = nil) throws -> CareStore {
        let (location, exists) = try checkedLocation(in: context)
        if access != .initialize, !exists {
            throw CommandFailure(
                "no care store at \(location.path) (from \(location.source.rawValue))",
                hint: "run 'romdev init' to create it, or choose another with --store or ROMDEV_STORE")
        }
        return try attempt("could not open the care store at \(location.path)") {
            try CareStore(path: location.path, access: access, timeZone: timeZone ?? context.defaultTimeZone)
        }
    }
}

extension CareStoreError: HintedError {
    /// What to do for the failures a user can do something about.
    public var hint: String? {
        switch self {
        case .onboardingRequired: "run 'romdev onboard --consent-by NAME' first"
        case .onboardingTaskKept:
            "to withdraw consent, delete its outcome: 'romdev outcome delete --task onboarding --occurrence N'"
        case .unknownTask: "'romdev tasks' lists the tasks"
        case .care(.duplicateOutcome): "delete it first with 'romdev outcome delete --task ID --occurrence N'"
        case .care(.updateWouldOrphanOutcomes): "pass a later --effective date"
        case .storeTooNew: "install the newer romdev that wrote this store"
        case .notAStore: "choose the store with --store or ROMDEV_STORE; 'romdev init' creates a new one"
        case .damaged:
            "restore the store from a backup; 'romdev export' may still read what it holds"
        case .diskFull: "free some space on that disk, then try again"
        default: nil
        }
    }
}
