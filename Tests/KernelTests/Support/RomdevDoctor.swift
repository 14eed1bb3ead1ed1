import Foundation

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
        let run = try RomdevExecutable.run(["doctor", "--json"] + arguments)
        return Run(
            status: run.status, report: try JSONDecoder().decode(Report.self, from: run.stdout), stderr: run.stderr)
    }
}
