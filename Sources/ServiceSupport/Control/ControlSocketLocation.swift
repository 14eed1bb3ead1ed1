/// Where the daemon's control socket lives: `control.sock` in the runtime directory, which is
/// `$ROMDEV_RUNTIME_DIR`, else the daemon's configured directory, else `/run/romdev` (the
/// unit's `RuntimeDirectory=`).
public enum ControlSocketLocation {
    /// The runtime directory when nothing else is set.
    public static let defaultDirectory = "/run/romdev"
    /// The socket's file name in the runtime directory.
    public static let fileName = "control.sock"

    /// The runtime directory.
    /// - Parameters:
    ///   - configuredDirectory: The daemon's configuration value, or nil (the command line has none).
    ///   - environment: The process environment, for `ROMDEV_RUNTIME_DIR`.
    public static func directory(configuredDirectory: String? = nil, environment: [String: String]) -> String {
        if let fromEnvironment = environment["ROMDEV_RUNTIME_DIR"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        if let configuredDirectory, !configuredDirectory.isEmpty {
            return configuredDirectory
        }
        return defaultDirectory
    }

    /// The socket's path in ``directory(configuredDirectory:environment:)``.
    public static func path(configuredDirectory: String? = nil, environment: [String: String]) -> String {
        let directory = directory(configuredDirectory: configuredDirectory, environment: environment)
        return (directory.hasSuffix("/") ? directory : directory + "/") + fileName
    }
}
