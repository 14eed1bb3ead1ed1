import Foundation
import Glibc
import LinuxSystem
import Testing

struct FilePathTests {
    /// dirname(3) and basename(3) on the paths that crashed NSString: one character, dots, a
    /// trailing slash, a tilde.
    @Test(arguments: [
        ("b", ".", "b"), (".", ".", "."), ("./", ".", "."), ("a/", ".", "a"), ("~", ".", "~"),
        ("", ".", "."), ("/", "/", "/"), ("//", "/", "/"), ("/a", "/", "a"), ("/a/b", "/a", "b"),
        ("a//b//", "a", "b"), ("../x", "..", "x"), ("dir/c.sqlite", "dir", "c.sqlite"),
    ])
    func directoryAndLastComponent(path: String, directory: String, last: String) {
        #expect(FilePath(path).directory == directory)
        #expect(FilePath(path).lastComponent == last)
    }

    @Test(arguments: ["", ".", "./", "a/", "..", "x/..", "/", "a/."])
    func pathsThatCannotNameAFile(path: String) {
        #expect(FilePath(path).problemAsFileName != nil)
    }

    /// Nothing longer than PATH_MAX can be opened, so such a path is refused before it is echoed.
    @Test func pathsLongerThanLinuxOpensAreRefused() {
        #expect(FilePath(String(repeating: "a", count: 4095)).problemAsPath == nil)
        #expect(FilePath(String(repeating: "a", count: 4096)).problemAsPath?.contains("longer than 4095 bytes") == true)
        #expect(FilePath(String(repeating: "é", count: 2048)).problemAsFileName != nil)
    }

    @Test(arguments: ["b", "~", "-", "a/b", "/dev/null", ".hidden"])
    func pathsThatNameAFile(path: String) {
        #expect(FilePath(path).problemAsFileName == nil)
    }

    /// A fresh directory holding a FIFO `fifo`, removed afterwards.
    private func withFIFO(_ name: String, _ body: (_ directory: String, _ fifo: String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        try body(directory, directory + "/fifo")
    }

    @Test func fileTypes() throws {
        try withFIFO("filepath") { (directory: String, fifo: String) throws(any Error) in
            let link = directory + "/link"
            #expect(symlink(fifo, link) == 0)
            #expect(try FilePath(fifo).fileType(followingLinks: false) == .fifo)
            #expect(try FilePath(link).fileType(followingLinks: false) == .symbolicLink)
            #expect(try FilePath(link).fileType(followingLinks: true) == .fifo)
            #expect(try FilePath(directory).fileType(followingLinks: false) == .directory)
            #expect(try FilePath("/dev/null").fileType(followingLinks: false) == .characterDevice)
            #expect(try FilePath(directory + "/none").fileType(followingLinks: false) == nil)
        }
    }

    /// Nothing at the path is written through or replaced, not even a dangling symbolic link.
    @Test func createNewFileRefusesAnythingThere() throws {
        try withFIFO("createnew") { (directory: String, fifo: String) throws(any Error) in
            let dangling = directory + "/dangling"
            #expect(symlink(directory + "/target", dangling) == 0)
            for path in [fifo, dangling, directory, "/dev/null"] {
                #expect(throws: Errno.fileExists) { try FilePath(path).createNewFile() }
            }
            #expect(!FileManager.default.fileExists(atPath: directory + "/target"))
            let descriptor = try FilePath(directory + "/new").createNewFile()
            #expect(descriptor >= 0)
            close(descriptor)
            #expect(try FilePath(directory + "/new").fileType(followingLinks: false) == .regular)
        }
    }

    /// A FIFO or directory is refused on the descriptor, before any read could block.
    @Test func readRegularFileRefusesOtherTypes() throws {
        try withFIFO("readfile") { (directory: String, fifo: String) throws(any Error) in
            #expect(throws: FileReadError.notRegularFile(.fifo)) { try FilePath(fifo).readRegularFile(limit: 10) }
            #expect(throws: FileReadError.notRegularFile(.directory)) {
                try FilePath(directory).readRegularFile(limit: 10)
            }
            #expect(throws: FileReadError.notRegularFile(.characterDevice)) {
                try FilePath("/dev/null").readRegularFile(limit: 10)
            }
            #expect(throws: FileReadError.cannotOpen(.noSuchFileOrDirectory)) {
                try FilePath(directory + "/none").readRegularFile(limit: 10)
            }
            let file = directory + "/file"
            try "hello".write(toFile: file, atomically: false, encoding: .utf8)
            #expect(try FilePath(file).readRegularFile(limit: 5) == Array("hello".utf8))
            #expect(throws: FileReadError.tooLarge(limit: 4)) { try FilePath(file).readRegularFile(limit: 4) }
        }
    }
}

struct TerminalTextTests {
    @Test func controlCharactersAreEscapedButNewlinesTabsAndLettersKept() {
        #expect(TerminalText.escapingControlCharacters("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(TerminalText.escapingControlCharacters("x\ry\u{7F}z\u{9B}") == "x\\u{D}y\\u{7F}z\\u{9B}")
        #expect(TerminalText.escapingControlCharacters("Zoë\tMüller\n") == "Zoë\tMüller\n")
    }

    @Test func excerptsCutLongInputAndSayHowLong() {
        let long = String(repeating: "x", count: 262_144)
        let excerpt = TerminalText.excerpt(long)
        #expect(excerpt == String(repeating: "x", count: TerminalText.excerptLimit) + "… (262144 characters)")
        #expect(TerminalText.excerpt("short") == "short")
        #expect(TerminalText.excerpt("\u{1B}") == "\\u{1B}")
        #expect(TerminalText.excerpt("2026\n-01") == "2026\\u{A}-01")
    }

    @Test func invisibleFormattingCharactersAreShown() {
        #expect(TerminalText.escapingControlCharacters("\u{FEFF}time_s") == "\\u{FEFF}time_s")
        #expect(TerminalText.escapingControlCharacters("a\u{200B}\u{202E}b\u{2028}") == "a\\u{200B}\\u{202E}b\\u{2028}")
        #expect(TerminalText.escapingControlCharacters("Zoë Müller – 7½ h") == "Zoë Müller – 7½ h")
    }

    @Test func inlineTextEscapesNewlinesAndTabsToo() {
        #expect(TerminalText.inline("Ann\nEvil: injected\tx") == "Ann\\u{A}Evil: injected\\u{9}x")
        #expect(TerminalText.inline("Zoë Müller") == "Zoë Müller")
    }
}
