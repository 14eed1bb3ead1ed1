import Foundation
import LinuxSystem

/// A destination for text: standard output, standard error, or a buffer in tests.
///
/// Text for people (``write(_:)``, ``line(_:)``) has its control characters other than newline
/// and tab escaped, so stored text (a consent name, a task title) or an echoed argument cannot
/// drive the terminal. CSV and configuration files go through ``writeData(_:)`` unchanged, so CSV
/// keeps the stored text exactly; JSON reads the same either way, as its writer escapes control
/// characters itself.
public final class TextOutput {
    private let sink: (String) -> Void

    /// Output that hands each piece of text to `sink`.
    public init(_ sink: @escaping (String) -> Void) {
        self.sink = sink
    }

    /// Writes `text` for people, control characters escaped.
    public func write(_ text: String) {
        sink(TerminalText.escapingControlCharacters(text))
    }

    /// Writes `line` for people, control characters escaped, followed by a newline.
    public func line(_ line: String = "") {
        sink(TerminalText.escapingControlCharacters(line) + "\n")
    }

    /// Writes a data format (CSV, JSON, a configuration file) exactly as given.
    public func writeData(_ text: String) {
        sink(text)
    }

    /// The process's standard output.
    public static var standardOutput: TextOutput {
        TextOutput(writing: .standardOutput)
    }

    /// The process's standard error.
    public static var standardError: TextOutput {
        TextOutput(writing: .standardError)
    }

    /// Output to `handle`, handing it the string's own bytes: a page of megabytes is not copied.
    private convenience init(writing handle: FileHandle) {
        self.init { text in
            var text = text
            text.withUTF8 { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
                handle.write(
                    Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none))
            }
        }
    }
}

extension String {
    /// The string followed by spaces up to `width` characters, for columns; a longer string is kept
    /// whole (Foundation's `padding(toLength:)` would cut it, and a cut occurrence number or task
    /// name names something else).
    func padded(toWidth width: Int) -> String {
        let count = self.count
        return count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
