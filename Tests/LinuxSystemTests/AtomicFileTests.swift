import Foundation
import Glibc
import LinuxSystem
import TestSupport
import Testing

/// Output files: only a regular file is ever replaced.
@Suite struct AtomicFileTests {
    @Test func atomicWriteReplacesTheFileWhole() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/out.csv"
        try AtomicFile.write("old\n", to: path)
        try AtomicFile.write("new\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.csv"])
        #expect(throws: AtomicFile.WriteError.self) {
            try AtomicFile.write("x", to: directory.path + "/missing/out.csv")
        }
    }

    /// A written file gets the mode any file the process creates gets, 0666 less the umask (read
    /// from /proc, which leaves it as it is), both new and replacing one of another mode.
    @Test func writtenFilesTakeTheUmasksMode() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        let umask = try #require(Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
        let directory = try TemporaryDirectory()
        let path = directory.path + "/out.csv"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try AtomicFile.write("new\n", to: path)
        let names = try AtomicFile.createNew([("csv", "a\n")], in: directory.path, baseName: "export")
        for file in [path, directory.path + "/" + names[0]] {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
            #expect(mode == 0o666 & ~umask, "\(file): \(String(mode, radix: 8))")
        }
    }

    @Test func refusesToReplaceAFIFOADirectoryOrASymbolicLink() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let link = directory.path + "/link"
        let target = directory.path + "/target"
        try "kept\n".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(symlink(target, link) == 0)
        try FileManager.default.createDirectory(atPath: directory.path + "/sub", withIntermediateDirectories: false)
        for (path, kind) in [(fifo, "a FIFO"), (link, "a symbolic link"), (directory.path + "/sub", "a directory")] {
            #expect {
                try AtomicFile.write("x", to: path)
            } throws: { error in
                "\(error)" == "will not replace \(path): it is \(kind), not a regular file"
            }
        }
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "fifo", "link", "sub", "target",
            ])
    }

    @Test func refusesADeviceNode() {
        #expect {
            try AtomicFile.write("x", to: "/dev/null")
        } throws: { error in
            "\(error)" == "will not replace /dev/null: it is a character device, not a regular file"
        }
    }

    @Test(arguments: ["", "dir/", ".", ".."])
    func refusesPathsThatNameNoFile(path: String) {
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write("x", to: path) }
    }
}
