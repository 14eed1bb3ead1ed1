import Foundation

extension Date {
    /// The instant in ISO 8601 (UTC), for error messages.
    var iso8601Text: String { formatted(.iso8601) }
}
