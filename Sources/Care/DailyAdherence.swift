import Foundation

/// The adherence of one local day.
public struct DailyAdherence: Hashable, Sendable {
    /// The first instant of the day.
    public var day: Date
    /// The day's adherence.
    public var adherence: Adherence

    /// Creates an entry; `day` is the first instant of the local day.
    public init(day: Date, adherence: Adherence) {
        self.day = day
        self.adherence = adherence
    }
}
