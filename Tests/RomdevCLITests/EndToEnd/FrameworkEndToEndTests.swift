import TestSupport
import Testing

@testable import RomdevCLI

@Suite struct FrameworkEndToEndTests {
    @Test func helpGoesToStdoutWithStatusZero() throws {
        let result = try RomdevProcess.run(["--help"])
        #expect(result.status == 0)
        let help = try Romdev.tool.helpText(for: [])
        #expect(result.stdout == help)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("64    Usage error"))
    }

    @Test func versionIsOneLine() throws {
        let result = try RomdevProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == Romdev.version + "\n")
    }

    @Test func usageErrorGoesToStderrWithStatus64() throws {
        let result = try RomdevProcess.run(["--bogus"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: Unknown option '--bogus'\nUsage: romdev"))
        #expect(result.stderr.hasSuffix("  See 'romdev --help' for more information.\n"))
    }
}
