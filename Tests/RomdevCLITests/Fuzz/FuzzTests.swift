import Foundation
import Glibc
import SQLite
import TestSupport
import Testing

/// The fuzz tier: malformed arguments, configuration files, calibration files and recordings,
/// each run through the built binary against an onboarded store.
///
/// Every case must end with exit status 1, 64 or 78 (never a signal), say why on stderr in at
/// most a few lines with control characters escaped, leave the store's rows exactly as they
/// were and leave no file behind. Seeds are fixed, so a run is the same on every machine; a
/// failure prints its family and seed, and `FuzzFamily.<family>.input(seed:)` rebuilds the case.
// Serialized: one case at a time keeps the fuzz tier from crowding the timing-paced daemon tests
// that run beside it on a small machine.
@Suite("Fuzz: malformed input through the binary", .serialized)
struct FuzzTests {
    /// Cases per family: about 650 processes, some 20 s on two cores for a debug build.
    static let cases: [FuzzFamily: Int] = [.arguments: 300, .configuration: 120, .calibration: 100, .recording: 130]

    /// The first seed of each family; case `n` uses `seed + n`.
    static func firstSeed(_ family: FuzzFamily) -> UInt64 {
        0x726F_6D64_6576_0000 &+ UInt64(FuzzFamily.allCases.firstIndex(of: family)!) << 20
    }

    /// The largest error report accepted: a message, a hint or help line, and the usage.
    static let reportLimit = 4096

    @Test(arguments: FuzzFamily.allCases)
    func malformedInputIsRefusedCleanly(family: FuzzFamily) throws {
        let fixture = try FuzzFixture()
        let rows = try fixture.storeRows()
        let files = try fixture.workFiles()
        var failures: [String] = []
        for index in 0..<Self.cases[family]! {
            let seed = Self.firstSeed(family) &+ UInt64(index)
            let input = family.input(seed: seed)
            let result = try fixture.run(input)
            var problems = Self.problems(with: result)
            if try fixture.storeRows() != rows { problems.append("the store's rows changed") }
            let left = try fixture.workFiles().subtracting(files).subtracting(input.files.map(\.name))
            if !left.isEmpty { problems.append("files left behind: \(left.sorted())") }
            try fixture.restore(files)
            if !problems.isEmpty {
                failures.append(
                    """
                    \(family.rawValue) seed \(seed): \(problems.joined(separator: "; "))
                      \(input)
                      exit \(result.status)\(result.signaled ? " (signal)" : ""), stderr: \(result.stderr.prefix(500))
                    """)
            }
        }
        #expect(
            failures.isEmpty,
            Comment(rawValue: "\(failures.count) cases failed:\n" + failures.prefix(10).joined(separator: "\n")))
    }

    static func problems(with result: RomdevProcess.Result) -> [String] {
        var problems: [String] = []
        if result.signaled {
            problems.append("killed by signal \(result.status)")
        } else if ![1, 64, 78].contains(result.status) {
            problems.append("exit status \(result.status), expected 1, 64 or 78")
        }
        let report = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        if report.isEmpty { problems.append("nothing on stderr") }
        if !report.hasPrefix("Error: ") { problems.append("stderr does not start with 'Error: '") }
        if result.stderr.utf8.count > reportLimit { problems.append("\(result.stderr.utf8.count) bytes on stderr") }
        if result.stderr.unicodeScalars.contains(where: {
            $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t"
        }) {
            problems.append("a raw control character on stderr")
        }
        return problems
    }
}

/// A store initialised, onboarded and checked in today, and a working directory holding what
/// the cases name: a valid recording `rec.csv`, a directory `sub` and a FIFO `fifo`.
final class FuzzFixture {
    let directory: TemporaryDirectory
    var storePath: String { directory.storePath }
    var workPath: String { directory.path + "/work" }
    let environment: [String: String]
    private let database: Database

    init() throws {
        let directory = try TemporaryDirectory()
        self.directory = directory
        let environment = [
            "ROMDEV_STORE": directory.storePath, "HOME": directory.path, "TZ": "UTC",
            "ROMDEV_RUNTIME_DIR": directory.path + "/run",
        ]
        self.environment = environment
        try FileManager.default.createDirectory(atPath: directory.path + "/work/sub", withIntermediateDirectories: true)
        guard mkfifo(directory.path + "/work/fifo", 0o600) == 0 else {
            throw FixtureError(description: "mkfifo: errno \(errno)")
        }
        var random = FuzzRandom(seed: 1)
        let recording =
            ([FuzzRecording.header] + FuzzRecording.rows(200, &random).map { $0.joined(separator: ",") })
            .joined(separator: "\n") + "\n"
        try recording.write(toFile: directory.path + "/work/rec.csv", atomically: false, encoding: .utf8)
        for arguments in [
            ["init", "--tz", "UTC"], ["onboard", "--consent-by", "Ann Example"],
            ["checkin", "--pain", "3", "--sleep", "7"],
        ] {
            let result = try RomdevProcess.run(arguments, environment: environment, in: directory.path + "/work")
            guard result.status == 0 else { throw FixtureError(description: "\(arguments): \(result.stderr)") }
        }
        database = try Database(path: directory.storePath)
    }

    func run(_ input: FuzzInput) throws -> RomdevProcess.Result {
        for file in input.files {
            try Data(file.contents).write(to: URL(fileURLWithPath: workPath + "/" + file.name))
        }
        return try RomdevProcess.run(
            input.arguments, environment: environment.merging(input.environment) { $1 }, in: workPath)
    }

    /// Every row of every table, as sorted text: what "the store is unchanged" compares.
    func storeRows() throws -> [String] {
        try Self.rows(of: database)
    }

    static func rows(of database: Database) throws -> [String] {
        try database.read { connection in
            var rows: [String] = []
            let tables = try connection.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            for table in tables {
                let name = try table.decode("name", as: String.self)
                for row in try connection.fetchAll("SELECT * FROM \"\(name)\"") {
                    rows.append(name + ": " + row.values.map { "\($0)" }.joined(separator: "|"))
                }
            }
            return rows.sorted()
        }
    }

    /// The names in the working directory.
    func workFiles() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: workPath))
    }

    /// Removes what a case wrote (its input files), so the next case starts alike.
    func restore(_ files: Set<String>) throws {
        for name in try workFiles().subtracting(files) {
            try FileManager.default.removeItem(atPath: workPath + "/" + name)
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
    }
}
