import LinuxSystem

/// Where the care store lives, and why there.
///
/// Resolution order: the `--store` option, then `$ROMDEV_STORE`, then the appliance's system
/// store `/var/lib/romdev/care.sqlite` when that directory exists and is writable (the systemd
/// unit's `StateDirectory`), then the user's `$XDG_DATA_HOME/romdev/care.sqlite`
/// (`~/.local/share` when `XDG_DATA_HOME` is unset or not absolute, per the XDG Base Directory
/// specification).
public struct StorePath: Hashable, Sendable {
    /// Where a path came from, for `--help` and error messages.
    public enum Source: String, Hashable, Sendable {
        /// The `--store` option.
        case option = "--store"
        /// The `ROMDEV_STORE` environment variable.
        case environment = "ROMDEV_STORE"
        /// The appliance's `/var/lib/romdev`, existing and writable.
        case system = "system store"
        /// The user's data directory (`$XDG_DATA_HOME`, default `~/.local/share`).
        case user = "XDG_DATA_HOME"
    }

    /// The store file's path.
    public let path: String
    /// Which rule chose it.
    public let source: Source

    public init(path: String, source: Source) {
        self.path = path
        self.source = source
    }

    /// Why `path` cannot name a store file, or nil when it can: it is empty, names a directory
    /// (ends with `/`, `.` or `..`), or starts with a `~` that no shell expanded (here it would be
    /// a directory named `~` under the working directory, which is never what was meant).
    public static func problem(with path: String) -> String? {
        if let problem = FilePath(path).problemAsFileName { return problem }
        if path == "~" || path.hasPrefix("~/") {
            return "a leading '~' is not expanded here; give the full path"
        }
        return nil
    }

    /// The appliance's store directory.
    public static let systemDirectory = "/var/lib/romdev"
    /// The store's file name inside a directory.
    public static let fileName = "care.sqlite"

    /// Resolves the store path without touching the file system.
    ///
    /// - Parameters:
    ///   - option: The `--store` value, if given.
    ///   - environment: The process environment (`ROMDEV_STORE`, `XDG_DATA_HOME`, `HOME`).
    ///   - homeDirectory: The user's home, used when `HOME` is unset.
    ///   - isWritableDirectory: Whether a directory exists and this process may create files in it.
    public static func resolve(
        option: String?, environment: [String: String], homeDirectory: String,
        isWritableDirectory: (String) -> Bool
    ) -> StorePath {
        if let option, !option.isEmpty { return StorePath(path: option, source: .option) }
        if let path = environment["ROMDEV_STORE"], !path.isEmpty { return StorePath(path: path, source: .environment) }
        if isWritableDirectory(systemDirectory) {
            return StorePath(path: systemDirectory + "/" + fileName, source: .system)
        }
        // "If $XDG_DATA_HOME is either not set or empty, a default equal to $HOME/.local/share
        // should be used"; relative paths "should be ignored" (XDG Base Directory spec).
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? homeDirectory
            dataHome = home + "/.local/share"
        }
        return StorePath(path: dataHome + "/romdev/" + fileName, source: .user)
    }
}
