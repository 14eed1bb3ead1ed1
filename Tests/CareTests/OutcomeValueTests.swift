import Foundation
import Testing

@testable import Care

@Suite struct OutcomeValueTests {
    static let created = Date(timeIntervalSince1970: 1_622_563_200)

    @Test(arguments: [
        (OutcomeValue.Value.integer(7), "integer", 7.0 as Double?),
        (.double(85.5), "double", 85.5),
        (.boolean(true), "boolean", 1),
        (.text("left"), "text", nil),
        (.date(Date(timeIntervalSince1970: 0)), "date", nil),
    ])
    func typeNameNumberValueAndJSONRoundTrip(value: OutcomeValue.Value, type: String, number: Double?) throws {
        let outcomeValue = OutcomeValue(value, kind: "k", units: "u", createdDate: Self.created)
        #expect(outcomeValue.typeName == type)
        #expect(outcomeValue.numberValue == number)
        let data = try JSONEncoder().encode(outcomeValue)
        #expect(try JSONDecoder().decode(OutcomeValue.self, from: data) == outcomeValue)
        #expect(String(decoding: data, as: UTF8.self).contains(#""type":"\#(type)""#))
    }

    @Test func omitsMissingKindAndUnits() throws {
        let json = String(
            decoding: try JSONEncoder().encode(OutcomeValue(.integer(1), createdDate: Self.created)), as: UTF8.self)
        #expect(!json.contains("kind") && !json.contains("units"))
    }

    @Test func rejectsUnknownTypes() {
        let json = #"{"type":"binary","value":"AA==","createdDate":0}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OutcomeValue.self, from: Data(json.utf8)) }
    }

    @Test func outcomeFindsTheFirstValueOfAKind() {
        let outcome = Outcome(
            taskUUID: Fixtures.uuid(1), taskOccurrenceIndex: 0,
            values: [
                OutcomeValue(.integer(3), kind: "a", createdDate: Self.created),
                OutcomeValue(.integer(4), kind: "a", createdDate: Self.created),
            ],
            createdDate: Self.created, eventStart: Self.created, eventEnd: Self.created)
        #expect(outcome.value(ofKind: "a")?.numberValue == 3)
        #expect(outcome.value(ofKind: "b") == nil)
    }
}
