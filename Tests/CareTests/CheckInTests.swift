import Foundation
import Testing

@testable import Care

@Suite struct CheckInTests {
    @Test(arguments: [(1.0, 0.0), (10, 12), (3, 7.5), (5, 8)])
    func acceptsValidAnswers(pain: Double, sleep: Double) throws {
        let checkIn = try CheckIn(pain: pain, sleepHours: sleep)
        #expect(checkIn.pain == Int(pain))
        #expect(checkIn.sleepHours == sleep)
    }

    @Test(arguments: [
        (0.0, 7.0, "pain must be a whole number from 1 to 10, got 0"),
        (11, 7, "pain must be a whole number from 1 to 10, got 11"),
        (3.5, 7, "pain must be a whole number from 1 to 10, got 3.5"),
        (.nan, 7, "pain must be a whole number from 1 to 10, got nan"),
        (3, 13, "sleep must be hours from 0 to 12 in steps of 0.5, got 13"),
        (3, -0.5, "sleep must be hours from 0 to 12 in steps of 0.5, got -0.5"),
        (3, 7.3, "sleep must be hours from 0 to 12 in steps of 0.5, got 7.3"),
    ])
    func rejectsInvalidAnswersWithAClearMessage(pain: Double, sleep: Double, message: String) {
        do {
            _ = try CheckIn(pain: pain, sleepHours: sleep)
            Issue.record("accepted pain \(pain), sleep \(sleep)")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func outcomeValuesAreTypedAndRoundTrip() throws {
        let created = Date(timeIntervalSince1970: 1_622_563_200)
        let values = try CheckIn(pain: 3, sleepHours: 7.5).outcomeValues(createdDate: created)
        #expect(
            values == [
                OutcomeValue(.integer(3), kind: "checkin.form.pain", createdDate: created),
                OutcomeValue(.double(7.5), kind: "checkin.form.sleep", units: "h", createdDate: created),
            ])
        let expected = try CheckIn(pain: 3, sleepHours: 7.5)
        #expect(CheckIn(values: values) == expected)
        #expect(CheckIn(values: Array(values.prefix(1))) == nil)
    }
}
