import Fusion
import Testing

@testable import Appliance

@Suite struct ResultSummaryTests {
    @Test func summaryRoundsToATenthWithoutNegativeZero() {
        let result = RangeOfMotionResult(start: -7.9e-16, finish: 0.11, minimum: -0.0033, maximum: 65.953)
        #expect(result.summary == "range 66.0° (start 0.0°, finish 0.1°, minimum 0.0°, maximum 66.0°); knee 24.0–90.0°")
    }
}
