import Foundation

extension CareStore {
    /// The creation date of the newest live outcome, nil for none. The daemon distrusts a clock
    /// earlier than this: a result cannot have been recorded in the future.
    public func newestOutcomeDate() throws(CareStoreError) -> Date? {
        try read {
            try $0.fetchValue("SELECT max(created_date) FROM outcome WHERE deleted_date IS NULL", as: Date.self)
        }
    }
}
