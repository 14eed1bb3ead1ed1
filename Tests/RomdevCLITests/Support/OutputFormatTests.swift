import Foundation
import ServiceSupport
import Testing

@testable import RomdevCLI

@Suite struct OutputFormatTests {
    @Test func jsonKeepsKeyOrderAndEscapes() {
        let value = JSONValue.object([
            ("z", .int(1)), ("a", .string("quote \" backslash \\ newline \n tab \t bell \u{07}")),
            ("list", .array([.bool(true), .null, .double(7.5)])), ("empty", .array([])), ("none", .object([])),
        ])
        #expect(
            value.rendered() == """
                {
                  "z": 1,
                  "a": "quote \\" backslash \\\\ newline \\n tab \\t bell \\u0007",
                  "list": [
                    true,
                    null,
                    7.5
                  ],
                  "empty": [],
                  "none": {}
                }

                """)
    }

    @Test func jsonIsValidForFoundation() throws {
        let value = JSONValue.object([("a", .string("é \u{01} \"x\"")), ("b", .double(0.1)), ("c", .double(.nan))])
        let parsed = try JSONSerialization.jsonObject(with: Data(value.rendered().utf8)) as? [String: Any]
        #expect(parsed?["a"] as? String == "é \u{01} \"x\"")
        #expect(parsed?["b"] as? Double == 0.1)
        #expect(parsed?["c"] is NSNull)
    }

    @Test(arguments: [
        ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\nlines", "\"two\nlines\""),
        ("cr\r", "\"cr\r\""), ("", ""),
    ])
    func csvQuotesOnlyWhenNeeded(field: String, expected: String) {
        #expect(CSV.field(field) == expected)
    }

    @Test func csvLine() {
        #expect(CSV.line(["a", "b,c", ""]) == "a,\"b,c\",\n")
    }

    @Test(arguments: [
        (0.0, "[----------] 0%"), (0.6, "[######----] 60%"), (0.999, "[#########-] 99%"),
        (1.0, "[##########] 100%"), (1.5, "[##########] 100%"), (-1.0, "[----------] 0%"),
    ])
    func adherenceBar(fraction: Double, bar: String) {
        #expect(CareOutput.bar(fraction) == bar)
    }

    @Test func iso8601WithTheZoneOffset() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/St_Johns")!
        let date = Date(timeIntervalSince1970: 1_780_819_200)  // 2026-06-07T08:00Z
        #expect(LocalTime.iso8601(date, calendar: calendar) == "2026-06-07T05:30:00-02:30")
        calendar.timeZone = TimeZone(identifier: "UTC")!
        #expect(LocalTime.iso8601(date, calendar: calendar) == "2026-06-07T08:00:00Z")
    }
}
