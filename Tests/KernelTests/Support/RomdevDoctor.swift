import Foundation

/// `romdev doctor --json` run as a process: the built executable next to the test bundle.
enum RomdevDoctor {
    struct Report: Decodable {
        var source: String
        var address: String
        var passed: Bool
        var checks: [Check]

        func check(_ name: String) -> Check? {
            checks.first { $0.name == name }
        }
    }

    struct Check: Decodable {
        var name: String
        var status: String
        var detail: String
        var hint: String?
    }

    struct Run {
        var status: Int32
        var report: Report
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Run {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("romdev")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["doctor", "--json"] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, report: try JSONDecoder().decode(Report.self, from: stdout),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
