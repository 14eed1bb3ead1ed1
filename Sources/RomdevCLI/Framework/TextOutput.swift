import Foundation

/// A destination for text: standard output, standard error, or a buffer in tests.
public final class TextOutput {
    private let sink: (String) -> Void

    /// Output that hands each piece of text to `sink`.
    public init(_ sink: @escaping (String) -> Void) {
        self.sink = sink
    }

    /// Writes `text` as is.
    public func write(_ text: String) {
        sink(text)
    }

    /// Writes `line` followed by a newline.
    public func line(_ line: String = "") {
        sink(line + "\n")
    }

    /// The process's standard output.
    public static var standardOutput: TextOutput {
        TextOutput { FileHandle.standardOutput.write(Data($0.utf8)) }
    }

    /// The process's standard error.
    public static var standardError: TextOutput {
        TextOutput { FileHandle.standardError.write(Data($0.utf8)) }
    }
}
