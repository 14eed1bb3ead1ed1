import Foundation
import Testing

@testable import SQLite

/// UUIDs read back from their stored text.
@Suite struct UUIDValueTests {
    @Test func canonicalTextParsesLikeFoundation() {
        for _ in 0..<200 {
            let uuid = UUID()
            #expect(UUID(canonicalText: uuid.uuidString) == uuid)
            #expect(UUID(canonicalText: uuid.uuidString.lowercased()) == uuid)
            #expect(UUID(databaseValue: .text(uuid.uuidString)) == uuid)
        }
    }

    @Test func malformedTextIsRefused() {
        let good = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        for bad in [
            "", good.dropLast() + "G", good.replacingOccurrences(of: "-", with: "_"), good + "0",
            String(good.dropLast()), "E621E1F8C36C495A93FC0C247A3E6E5F0000",
        ] {
            #expect(UUID(canonicalText: String(bad)) == nil, "\(bad)")
            #expect(UUID(databaseValue: .text(String(bad))) == UUID(uuidString: String(bad)))
        }
    }
}
