/// The strings of one command line, sorted by the option or argument they belong to, with typed
/// accessors that turn a malformed value into a ``UsageError`` naming the option.
public struct ParsedValues: Equatable, Sendable {
    var optionValues: [String: [String]] = [:]
    var flags: Set<String> = []
    var argumentValues: [String: String] = [:]

    /// Values built by hand, for tests of actions.
    public init(options: [String: [String]] = [:], flags: Set<String> = [], arguments: [String: String] = [:]) {
        self.optionValues = options
        self.flags = flags
        self.argumentValues = arguments
    }

    /// True when the flag was given.
    public func isSet(_ flag: Option) -> Bool {
        flags.contains(flag.name)
    }

    /// The option's value, its default when absent, or nil.
    public func string(_ option: Option) -> String? {
        optionValues[option.name]?.last ?? option.defaultValue
    }

    /// Every value of a repeating option, in command-line order.
    public func strings(_ option: Option) -> [String] {
        optionValues[option.name] ?? []
    }

    /// The argument's value, or nil when an optional argument was left out.
    public func string(_ argument: Argument) -> String? {
        argumentValues[argument.valueName]
    }

    /// The option's value converted by `transform`, or nil when absent (and without default).
    ///
    /// - Parameter transform: Returns nil for a value it cannot read, or throws an error whose
    ///   description says why (appended to the message).
    /// - Throws: ``UsageError`` "The value 'x' is invalid for '--name <value>'".
    public func value<T>(_ option: Option, _ transform: (String) throws -> T?) throws -> T? {
        guard let text = string(option) else { return nil }
        return try Self.convert(text, label: option.label, help: option.help, transform)
    }

    /// A required option's value converted by `transform`.
    ///
    /// - Throws: ``UsageError`` when the value is missing or malformed.
    public func required<T>(_ option: Option, _ transform: (String) throws -> T?) throws -> T {
        guard let value = try value(option, transform) else {
            throw UsageError(
                "Missing expected argument '\(option.label)'", argumentHelp: "\(option.label)  \(option.help)")
        }
        return value
    }

    /// Every value of a repeating option, each converted by `transform`.
    public func values<T>(_ option: Option, _ transform: (String) throws -> T?) throws -> [T] {
        try strings(option).map { try Self.convert($0, label: option.label, help: option.help, transform) }
    }

    /// The argument's value converted by `transform`, or nil when absent.
    public func value<T>(_ argument: Argument, _ transform: (String) throws -> T?) throws -> T? {
        guard let text = string(argument) else { return nil }
        return try Self.convert(text, label: argument.label, help: argument.help, transform)
    }

    /// A required argument's value (the parser has already checked it is present).
    public func required(_ argument: Argument) throws -> String {
        guard let text = string(argument) else {
            throw UsageError(
                "Missing expected argument '\(argument.label)'", argumentHelp: "\(argument.label)  \(argument.help)")
        }
        return text
    }

    private static func convert<T>(_ text: String, label: String, help: String, _ transform: (String) throws -> T?)
        throws -> T
    {
        let converted: T?
        do {
            converted = try transform(text)
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError.invalidValue(text, for: label, reason: "\(error)", help: "\(label)  \(help)")
        }
        guard let converted else {
            throw UsageError.invalidValue(text, for: label, help: "\(label)  \(help)")
        }
        return converted
    }
}
