import Foundation

/// Runs the built `romdev` executable, as swift-argument-parser's `AssertExecuteCommand` does.
///
/// A test target that uses it depends on the `romdev` target, so that the executable is built.
public enum RomdevProcess {
    public struct Result: Sendable {
        /// The exit status, or the signal's number when `signaled`.
        public var status: Int32
        /// Whether a signal ended the process (a crash: SIGILL from a trap, SIGSEGV, SIGABRT).
        public var signaled = false
        public var stdout: String
        public var stderr: String
    }

    /// The `romdev` executable next to the test bundle in the build directory.
    public static let executable: URL = {
        let candidates = [
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("romdev")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates[0].appendingPathComponent("romdev")
    }()

    /// Runs `romdev arguments…` with exactly `environment` (plus PATH, and TZ=UTC unless given),
    /// in `directory` when given, and returns its status and output.
    ///
    /// - Parameter wrapper: A command that runs romdev, its path appended (e.g. `setpriv …` to
    ///   run as another user); empty runs romdev itself.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil, wrapper: [String] = []
    ) throws -> Result {
        let process = Process()
        if let command = wrapper.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = wrapper.dropFirst() + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = environment
        env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        env["TZ"] = env["TZ"] ?? "UTC"
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting so a large output cannot fill a pipe and block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
