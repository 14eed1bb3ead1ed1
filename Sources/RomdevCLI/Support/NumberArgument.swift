/// Numbers as typed on the command line: plain decimal notation only.
///
/// `Double(_:)` also reads hexadecimal (`0x10`, `0x1.8p2`), exponents (`1e-9`), `inf` and `nan`;
/// none of those is how a person writes a pain score or a number of seconds, and accepting them
/// silently turns a typo into a value.
enum NumberArgument {
    /// `7`, `-1`, `+2`, `7.5`, `.5`, `5.`: an optional sign, digits, at most one decimal point
    /// and at least one digit, and no more digits than a `Double` holds exactly (15), so that a
    /// value is refused as typed, not as the `1e+26` it would become; nil for anything else.
    static func decimal(_ text: String) -> Double? {
        var body = Substring(text)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        let digits = body.filter { ("0"..."9").contains($0) }.count
        let points = body.filter { $0 == "." }.count
        guard digits > 0, points <= 1, digits + points == body.count, digits <= maximumDigits else { return nil }
        return Double(text)
    }

    static let maximumDigits = 15
}
