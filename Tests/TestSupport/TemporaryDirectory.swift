import Foundation

/// A fresh directory per test, removed with everything in it when the value goes away.
///
/// Made by `mkdtemp(3)` with a short name (`romdev-XXXXXX`), so that socket paths inside it fit
/// the 108 bytes of `sockaddr_un`.
public final class TemporaryDirectory {
    public let path: String

    public init() throws {
        let base = NSTemporaryDirectory()
        var template = Array(((base.hasSuffix("/") ? base : base + "/") + "romdev-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of `name` inside the directory; `name` may start with `/` (a path under it as root).
    public func path(_ name: String) -> String { name.hasPrefix("/") ? path + name : path + "/" + name }

    /// Creates or replaces the file `name` with `text`.
    public func write(_ text: String, to name: String) throws {
        try text.write(toFile: path(name), atomically: false, encoding: .utf8)
    }

    /// The text of the file `name`.
    public func read(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }
}
