import Foundation
import Testing

/// The repository's root, found from this file's path (Tests/ServiceSupportTests/…).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `Key=value` settings of a unit file, comments and blank lines left out, in order.
private func unitSettings(_ path: String) throws -> [(key: String, value: String)] {
    try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        .split(separator: "\n")
        .filter { !$0.hasPrefix("#") && $0.contains("=") }
        .map { line in
            let equals = line.firstIndex(of: "=")!
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
}

/// The USB export's unit and rule fit together: the stick is mounted, exported to and unmounted
/// at one path inside the unit's runtime directory.
@Suite("Export unit")
struct ExportUnitTests {
    @Test func mountExportAndUnmountUseOneDirectoryInTheRuntimeDirectory() throws {
        let settings = try unitSettings("systemd/romdev-export@.service")
        func values(_ key: String) -> [String] { settings.filter { $0.key == key }.map(\.value) }
        let runtime = try #require(values("RuntimeDirectory").first)
        let mountPoint = "/run/\(runtime)/usb"
        #expect(
            values("ExecStartPre") == [
                "+/usr/bin/systemd-mount --collect --owner=romdev -o nosuid,nodev,noexec /dev/%I \(mountPoint)"
            ])
        #expect(values("ExecStart") == ["/usr/bin/romdev export --to \(mountPoint)"])
        #expect(values("ExecStartPost") == ["+/usr/bin/systemd-umount \(mountPoint)"])
        #expect(
            values("ExecStopPost") == ["-+/usr/bin/systemd-umount \(mountPoint)"],
            "unmounted even after a failed export")
        #expect(values("User") == ["romdev"])
        #expect(values("Type") == ["oneshot"])
        #expect(values("BindsTo") == ["dev-%i.device"], "pulling the stick stops the unit")
    }

    @Test func ruleStartsTheUnitOnlyForFileSystemsThatTakeAnOwner() throws {
        let rule = try String(
            contentsOf: repositoryRoot.appendingPathComponent("udev/61-romdev-export.rules"), encoding: .utf8)
        // systemd-mount --owner adds uid=/gid=, which vfat and exFAT accept and ext4 refuses.
        #expect(rule.contains(#"ENV{ID_FS_TYPE}=="vfat|exfat""#))
        #expect(rule.contains(#"ENV{SYSTEMD_WANTS}+="romdev-export@%k.service""#))
    }
}
