/// A configuration file that cannot be used, naming the file and, when it applies, the line and
/// the key: `/etc/romdev/romdev.conf:12: quiet_hours: expected HH:MM-HH:MM, e.g. 21:00-08:00, got '9pm'`.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// The 1-based line, or nil for problems of the whole file (unreadable, keys that conflict).
    public let line: Int?
    /// The key concerned, if any.
    public let key: String?
    /// What is wrong.
    public let message: String

    public init(path: String, line: Int? = nil, key: String? = nil, message: String) {
        self.path = path
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        var text = path
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "\(key): " }
        return text + message
    }
}
