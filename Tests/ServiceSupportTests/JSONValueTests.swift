import Foundation
import ServiceSupport
import Testing

@Suite("JSON value")
struct JSONValueTests {
    /// Keys whose sorted order differs by case, digits and non-ASCII letters.
    private static let keys = ["b", "B", "a10", "a9", "a", "aa", "_", "Zed", "é", "z", "😀"]

    @Test func decodedObjectsHaveSortedKeysAndExactIntegers() throws {
        let text = #"{"b":9007199254740993,"a":[2.5,null,true,"x",{"y":-1,"x":0.1}],"B":9223372036854775807}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(
            value
                == .object([
                    ("B", .int(Int.max)),
                    (
                        "a",
                        .array([
                            .double(2.5), .null, .bool(true), .string("x"),
                            .object([("x", .double(0.1)), ("y", .int(-1))]),
                        ])
                    ),
                    ("b", .int(9_007_199_254_740_993)),
                ]))
    }

    @Test func renderingKeepsTheGivenOrderWhileTheControlEncodingSortsKeys() throws {
        let value = JSONValue.object([("z", .int(1)), ("a", .object([("y", .bool(false)), ("b", .null)]))])
        #expect(value.rendered() == "{\n  \"z\": 1,\n  \"a\": {\n    \"y\": false,\n    \"b\": null\n  }\n}\n")
        let reply = try ControlReply.ok("done", payload: value)
        #expect(reply.payload.map { String(decoding: $0, as: UTF8.self) } == #"{"a":{"b":null,"y":false},"z":1}"#)
    }

    @Test func anOrderedObjectEncodesAsTheDictionaryOfItsMembers() throws {
        let dictionary = Dictionary(uniqueKeysWithValues: Self.keys.enumerated().map { ($1, $0) })
        let dictionaryReply = try ControlReply.ok("done", payload: dictionary)
        for members in [Self.keys, Self.keys.reversed(), Self.keys.sorted()] {
            let object = JSONValue.object(members.map { ($0, .int(dictionary[$0]!)) })
            #expect(try ControlReply.ok("done", payload: object).payload == dictionaryReply.payload)
        }
        // The envelope carries the payload as a value and encodes it again, unchanged.
        let line = String(decoding: dictionaryReply.line, as: UTF8.self)
        let payload = String(decoding: try #require(dictionaryReply.payload), as: UTF8.self)
        #expect(line == #"{"message":"done","payload":"# + payload + #","status":"ok"}"# + "\n")
    }

    @Test func integersCrossTheControlSocketExactly() throws {
        let integers: [Int64] = [.max, .min, 9_007_199_254_740_993, -9_007_199_254_740_993, 0]
        let reply = try ControlReply.ok("done", payload: ["integers": integers])
        let decoded = try ControlReply(line: Array(reply.line.dropLast()))
        #expect(try decoded.decodePayload(as: [String: [Int64]].self) == ["integers": integers])
        #expect(decoded.payload == reply.payload)
    }
}
