import Foundation
import ServiceSupport
import TestSupport
import Testing

/// `/usr/bin/setpriv`, which runs the binary as an unprivileged user when the tests run as root.
private let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// A user outside the daemon's group asking for a measurement, through the built binary.
@Suite struct DaemonSocketPermissionTests {
    @Test(.enabled(if: getuid() == 0 && setpriv != nil, "needs root and setpriv to run as another user"))
    func userOutsideTheGroupIsToldToJoinIt() throws {
        let directory = try TemporaryDirectory()
        // Owned by root with mode 0660, as /run/romdev/control.sock is by romdev:romdev.
        let server = try ControlServer(path: directory.path + "/run/control.sock")
        defer { server.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(setpriv))
        process.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", RomdevProcess.executable.path, "measure",
        ]
        process.environment = [
            "ROMDEV_RUNTIME_DIR": directory.path + "/run", "ROMDEV_STORE": directory.storePath, "PATH": "/usr/bin:/bin",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(
            stderr == """
                Error: could not measure the range of motion: permission denied on the daemon's control socket \(server.path)
                Hint: join the romdev group (sudo usermod -aG romdev $USER, then log in again), or run as the romdev user

                """)
        #expect(try server.receive().isEmpty)
    }
}
