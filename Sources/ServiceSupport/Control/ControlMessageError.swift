/// A control line that is not a valid request or reply.
public struct ControlMessageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. "unknown request 'reboot'".
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
