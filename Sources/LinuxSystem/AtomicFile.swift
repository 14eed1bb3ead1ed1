#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes files so that readers see either nothing (or the old content) or the whole new file,
/// even across a crash: a temporary file in the same directory, fsync, rename to the final name,
/// fsync of the directory (rename(2) is atomic within one file system).
///
/// Only a regular file is ever replaced. A device node, FIFO, socket or directory at the path is
/// refused (as root, a rename over `/dev/null` would replace the device), and so is a symbolic
/// link: replacing the link would silently cut it, and following it would let whoever can write
/// the link's directory choose which file gets replaced.
public enum AtomicFile {
    /// Why a write failed: the operation, the path, and the reason.
    public struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
        public enum Reason: Hashable, Sendable, CustomStringConvertible {
            /// A system call failed.
            case system(Errno)
            /// The path cannot name a file (see ``FilePath/problemAsFileName``).
            case notAFileName(String)
            /// Something other than a regular file is at the path.
            case notRegularFile(FileType)

            public var description: String {
                switch self {
                case .system(let errno): "\(errno)"
                case .notAFileName(let problem): problem
                case .notRegularFile(let type): "it is \(type), not a regular file"
                }
            }
        }

        /// What was being done, e.g. `rename to`.
        public var operation: String
        /// The file or directory it was done to.
        public var path: String
        public var reason: Reason

        public var description: String {
            if case .notAFileName = reason { return "\(operation) '\(path)': \(reason)" }
            return "\(operation) \(path): \(reason)"
        }
    }

    /// Replaces `path` with `contents`: creates it, or replaces the regular file there.
    /// - Throws: `WriteError` for a path that cannot name a file, for anything at the path that is
    ///   not a regular file, and for failed system calls.
    public static func write(_ contents: String, to path: String) throws(WriteError) {
        let target = FilePath(path)
        if let problem = target.problemAsFileName {
            throw WriteError(operation: "will not write", path: path, reason: .notAFileName(problem))
        }
        let type: FileType?
        do {
            type = try target.fileType(followingLinks: false)
        } catch {
            throw WriteError(operation: "look up", path: path, reason: .system(error))
        }
        if let type, type != .regular {
            throw WriteError(operation: "will not replace", path: path, reason: .notRegularFile(type))
        }
        let directory = target.directory
        let temporary = try writeTemporary(contents, in: directory, hint: target.lastComponent)
        guard rename(temporary, path) == 0 else {
            let error = errno
            unlink(temporary)
            throw WriteError("rename to", path, error)
        }
        try syncDirectory(directory)
    }

    /// Creates new files named `baseName` plus each extension in `directory`, never replacing a
    /// file that exists: when a name is taken, `baseName-2`, `baseName-3`… are tried, the same
    /// suffix for every file. Each file appears complete or not at all; on failure none is left
    /// behind.
    ///
    /// - Parameter files: File name extensions (without the dot) and contents.
    /// - Returns: The file names created, in the order of `files`.
    /// - Throws: `WriteError` naming the directory or file and the C error.
    public static func createNew(
        _ files: [(fileExtension: String, contents: String)], in directory: String, baseName: String
    ) throws(WriteError) -> [String] {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw WriteError("open the directory", directory, errno) }
        close(descriptor)
        var temporaries: [String] = []
        defer { for temporary in temporaries { unlink(temporary) } }
        for file in files {
            temporaries.append(
                try writeTemporary(file.contents, in: directory, hint: baseName + "." + file.fileExtension))
        }
        for attempt in 1...1000 {
            let stem = attempt == 1 ? baseName : "\(baseName)-\(attempt)"
            let names = files.map { stem + "." + $0.fileExtension }
            var placed: [Int] = []
            var taken = false
            for index in files.indices {
                let target = directory + "/" + names[index]
                if renameWithoutReplacing(temporaries[index], to: target) == 0 {
                    placed.append(index)
                    continue
                }
                let error = errno
                // Put back what this attempt placed, so the next name starts from a clean slate.
                for done in placed.reversed() {
                    rename(directory + "/" + names[done], temporaries[done])
                }
                guard error == EEXIST else { throw WriteError("rename to", target, error) }
                taken = true
                break
            }
            if !taken {
                temporaries = []
                try syncDirectory(directory)
                return names
            }
        }
        throw WriteError("find a free name for", directory + "/" + baseName, EEXIST)
    }

    /// A new temporary file in `directory` holding `contents`, synced to disk, with the mode a file
    /// created the usual way gets: 0666 less the umask.
    ///
    /// The kernel applies the umask as `open(2)` creates the file. mkstemp(3) would create it 0600,
    /// and widening it afterwards needs the umask, which a process can read only by setting it:
    /// every thread's files created meanwhile, this one's among them, would come out world-writable.
    private static func writeTemporary(_ contents: String, in directory: String, hint: String) throws(WriteError)
        -> String
    {
        let (fd, temporary) = try createTemporary(in: directory, hint: hint)
        var complete = false
        defer { if !complete { unlink(temporary) } }
        defer { close(fd) }
        // The string's own bytes: a page of megabytes is not copied.
        var contents = contents
        let failure: Int32? = contents.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let result = Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return nil
        }
        if let failure { throw WriteError("write", temporary, failure) }
        guard fsync(fd) == 0 else { throw WriteError("fsync", temporary, errno) }
        complete = true
        return temporary
    }

    /// Creates a file no one else has opened (``FilePath/createNewFile()``), named `.hint.` and six
    /// random letters or digits, in `directory`; a name that exists is drawn again, as mkstemp(3)
    /// does.
    /// - Returns: The open descriptor and the file's path.
    private static func createTemporary(in directory: String, hint: String) throws(WriteError) -> (Int32, String) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var random = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let suffix = String((0..<6).map { _ in alphabet[Int(random.next(upperBound: UInt(alphabet.count)))] })
            let temporary = directory + "/." + hint + "." + suffix
            do {
                return (try FilePath(temporary).createNewFile(), temporary)
            } catch .fileExists {
                continue
            } catch {
                throw WriteError(operation: "create a temporary file in", path: directory, reason: .system(error))
            }
        }
        throw WriteError("create a temporary file in", directory, EEXIST)
    }

    /// The rename is durable only once the directory entry is on disk.
    private static func syncDirectory(_ directory: String) throws(WriteError) {
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { return }
        defer { close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw WriteError("fsync", directory, errno) }
    }

    /// `renameat2(…, RENAME_NOREPLACE)`: fails with `EEXIST` instead of replacing `target`.
    /// Glibc declares it only under `_GNU_SOURCE`, which Swift's Glibc module does not set, so it
    /// is looked up at run time. Where the file system lacks the flag (`EINVAL`), a check before a
    /// plain rename stands in; only another writer of the same new name could slip between them.
    private static func renameWithoutReplacing(_ source: String, to target: String) -> CInt {
        if let renameat2 {
            let result = renameat2(AT_FDCWD, source, AT_FDCWD, target, renameNoReplace)
            if result == 0 || (errno != EINVAL && errno != ENOSYS) { return result }
        }
        var status = stat()
        if lstat(target, &status) == 0 {
            errno = EEXIST
            return -1
        }
        return rename(source, target)
    }

    private typealias RenameAt2 =
        @convention(c) (CInt, UnsafePointer<CChar>, CInt, UnsafePointer<CChar>, CUnsignedInt) -> CInt

    private static let renameat2: RenameAt2? = dlsym(nil, "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }
    /// The kernel's `RENAME_NOREPLACE` flag of `renameat2`, which Glibc's module does not declare.
    private static let renameNoReplace: CUnsignedInt = 1
}

extension AtomicFile.WriteError {
    /// A failed system call: `errno` as the C library left it.
    init(_ operation: String, _ path: String, _ errno: CInt) {
        self.init(operation: operation, path: path, reason: .system(Errno(rawValue: errno)))
    }
}
