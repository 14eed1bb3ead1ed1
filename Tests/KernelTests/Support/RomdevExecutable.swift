import Foundation

/// The built `romdev` next to the test bundle, run as a process.
enum RomdevExecutable {
    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("romdev")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // stderr is drained on its own thread: a child that fills that pipe would otherwise block
        // for ever while stdout is read to its end.
        let stderr = StderrDrain(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr.wait(), as: UTF8.self))
    }

    private final class StderrDrain: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }.start()
        }

        /// The whole of stderr, once the child closed it.
        func wait() -> Data {
            done.wait()
            return data
        }
    }
}
