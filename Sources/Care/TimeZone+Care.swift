import Foundation

extension TimeZone {
    /// The zone named `identifier` when it can define a patient's days: a time zone database
    /// name, but not `Factory`, the database's placeholder for "no zone configured" (abbreviated
    /// `-00`), which would put every reminder in UTC while saying nothing.
    public init?(careIdentifier identifier: String) {
        guard identifier != "Factory", let zone = TimeZone(identifier: identifier) else { return nil }
        self = zone
    }
}
