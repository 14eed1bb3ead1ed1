import Foundation

/// A command's discussion read the way help text is written: paragraphs separated by blank
/// lines, each made of running text and of indented lines meant to be kept as they are
/// (examples, file formats, tables such as `EXIT CODES:`).
struct Discussion: Equatable {
    /// Consecutive lines of one kind.
    enum Run: Equatable {
        /// Running text, to be filled; the lines without their line breaks' meaning.
        case text([String])
        /// Indented lines, kept as written, with their common indentation removed.
        case verbatim([String])
    }

    /// A paragraph: its runs in order.
    typealias Paragraph = [Run]

    /// One row of an `EXIT CODES:` table.
    struct ExitCode: Equatable {
        /// The status, e.g. `64`.
        var status: String
        /// What it means, continuation lines joined.
        var meaning: String
    }

    /// The paragraphs, in order.
    let paragraphs: [Paragraph]

    /// The title line that introduces a command's table of exit statuses.
    static let exitCodesTitle = "EXIT CODES:"

    /// Splits `text` into paragraphs and runs.
    init(_ text: String) {
        var paragraphs: [Paragraph] = []
        var lines: [Substring] = []
        let allLines: [Substring] = text.split(separator: "\n", omittingEmptySubsequences: false) + [""]
        for line in allLines {
            if line.allSatisfy(\.isWhitespace) {
                if !lines.isEmpty { paragraphs.append(Self.runs(lines)) }
                lines = []
            } else {
                lines.append(line)
            }
        }
        self.paragraphs = paragraphs
    }

    /// The rows of the `EXIT CODES:` paragraph, empty when there is none. A row starts with the
    /// status and at least two spaces; more deeply indented lines continue the row above.
    var exitCodes: [ExitCode] {
        guard let table = paragraphs.first(where: Self.isExitCodes), table.count > 1,
            case .verbatim(let lines) = table[1]
        else { return [] }
        var codes: [ExitCode] = []
        for line in lines {
            if !line.hasPrefix(" "), let gap = line.range(of: "  ") {
                codes.append(
                    ExitCode(
                        status: String(line[..<gap.lowerBound]),
                        meaning: line[gap.upperBound...].trimmingCharacters(in: .whitespaces)))
            } else if !codes.isEmpty {
                codes[codes.count - 1].meaning += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return codes
    }

    /// The paragraphs other than the `EXIT CODES:` table.
    var paragraphsWithoutExitCodes: [Paragraph] {
        paragraphs.filter { !Self.isExitCodes($0) }
    }

    private static func isExitCodes(_ paragraph: Paragraph) -> Bool {
        paragraph.first == .text([exitCodesTitle])
    }

    private static func runs(_ lines: [Substring]) -> [Run] {
        var runs: [Run] = []
        var index = lines.startIndex
        while index < lines.endIndex {
            let indented = lines[index].hasPrefix(" ")
            let end = lines[index...].firstIndex { $0.hasPrefix(" ") != indented } ?? lines.endIndex
            let group = lines[index..<end]
            if indented {
                let margin = group.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                runs.append(.verbatim(group.map { String($0.dropFirst(margin)) }))
            } else {
                runs.append(.text(group.map { $0.trimmingCharacters(in: .whitespaces) }))
            }
            index = end
        }
        return runs
    }
}
