import Foundation
import Sensor

/// One malformed invocation of the binary: its arguments, the files it reads (written into the
/// case's working directory first), and environment overrides.
struct FuzzInput: CustomStringConvertible {
    var arguments: [String]
    var files: [(name: String, contents: [UInt8])] = []
    var environment: [String: String] = [:]

    /// The case as a reader can replay it: arguments, environment and each file (escaped, cut
    /// to 2 KB).
    var description: String {
        var text = "romdev " + arguments.map { Self.shown($0) }.joined(separator: " ")
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) {
            text += "\n  env \(key)=\(Self.shown(value))"
        }
        for file in files {
            let content = String(decoding: file.contents.prefix(2048), as: UTF8.self)
            text += "\n  file \(file.name) (\(file.contents.count) bytes): \(Self.shown(content))"
        }
        return text
    }

    private static func shown(_ text: String) -> String {
        let cut = text.count > 300 ? String(text.prefix(300)) + "…(\(text.count) characters)" : text
        return "'"
            + cut.unicodeScalars.map {
                $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F ? String($0) : "\\u{\(String($0.value, radix: 16))}"
            }.joined() + "'"
    }
}

/// Deterministic choices from SplitMix64 (never the standard library's `random(in:)`, whose
/// algorithm may change): the same seed gives the same case on every machine.
struct FuzzRandom {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// 0..<count.
    mutating func below(_ count: Int) -> Int {
        Int(generator.next() % UInt64(count))
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// True `percent` times in 100.
    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(below(10))) })
    }

    mutating func letters(_ count: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        return String((0..<count).map { _ in pick(alphabet) })
    }

    /// Text of 1 to `maxLength` characters from a pool of troublemakers (controls, quotes,
    /// separators, non-ASCII, digits), always holding at least one character that no number,
    /// date, path rule or id accepts. Never NUL: an argument cannot hold one.
    mutating func garbage(maxLength: Int) -> String {
        let pool: [Character] = [
            "a", "Z", "0", "9", ".", ",", "-", "+", "=", ":", "/", "~", "#", " ", "\t", "\"", "'", "\\", "%", "x",
            "\u{1B}", "\u{07}", "\r", "\n", "\u{7F}", "\u{85}", "\u{9B}", "é", "٣", "Ⅻ", "💥", "\u{202E}", "\u{FEFF}",
        ]
        let breakers: [Character] = ["\u{1B}", "#", " ", "💥", "\"", "\u{7F}", "%"]
        let length = 1 + below(maxLength)
        var text = String((0..<length).map { _ in pick(pool) })
        let position = text.index(text.startIndex, offsetBy: below(text.count + 1))
        text.insert(pick(breakers), at: position)
        return text
    }

    /// Very long text, 10 to 110 KB: what a careless script passes. Linux takes at most 128 KiB
    /// in one argument.
    mutating func huge() -> String {
        let unit = pick(["7", "x", "\u{1B}[2J", "é"])
        return String(repeating: unit, count: (10_000 + below(100_000)) / unit.utf8.count)
    }
}
