import Foundation
import LinuxSystem

/// Keeps a command's output from replacing one of its own inputs: an output file is replaced
/// whole, so `--trace` naming the recording, or `--output` naming the care store, would lose
/// what the command was reading.
enum OutputGuard {
    /// - Parameters:
    ///   - output: the path the command will replace, and the option that named it.
    ///   - inputs: the files it reads or keeps, each with what it is, for the message.
    /// - Throws: `CommandFailure` with exit status 64 (a usage error) when the output names one of
    ///   them: the same file by any name, or the same name while the file is not there yet (the
    ///   store's `-wal` file appears as soon as the store is opened).
    static func refuse(_ output: (path: String, option: String), replacing inputs: [(path: String, what: String)])
        throws
    {
        let target = FilePath(output.path)
        let targetName = absoluteName(output.path)
        for input in inputs
        where target.namesSameFile(as: FilePath(input.path)) || absoluteName(input.path) == targetName {
            throw CommandFailure(
                "will not write \(TerminalText.excerpt(output.path))",
                why: "'\(output.option)' names \(input.what), which it would replace", hint: "choose another file",
                exitStatus: 64)
        }
    }

    /// The care store's file and the files SQLite keeps beside it while the store is open.
    static func storeFiles(_ store: String) -> [(path: String, what: String)] {
        [(store, "the care store")] + ["-wal", "-shm", "-journal"].map { (store + $0, "the care store's \($0) file") }
    }

    /// The path with its directory resolved (links followed, made absolute) and its last component
    /// as written; the path itself when the directory cannot be resolved.
    private static func absoluteName(_ path: String) -> String {
        let file = FilePath(path)
        guard let directory = realpath(file.directory, nil) else { return path }
        defer { free(directory) }
        return String(cString: directory) + "/" + file.lastComponent
    }
}
