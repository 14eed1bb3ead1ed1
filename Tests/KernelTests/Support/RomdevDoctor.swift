import Foundation
import TestSupport

/// `romdev doctor --json` run as a process.
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
        /// shank or thigh; nil for the bus and the adapter.
        var sensor: String?
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
        let result = try RomdevProcess.run(
            ["doctor", "--json"] + arguments, environment: ProcessInfo.processInfo.environment)
        return Run(
            status: result.status, report: try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8)),
            stderr: result.stderr)
    }
}
