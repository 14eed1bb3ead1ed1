import Fusion

/// `--protocol extension|arc`, shared by `measure` and `replay`.
enum ProtocolOption {
    static let option = Option.value(
        "protocol", valueName: "protocol",
        help: "What the session follows: extension (extend and return) or arc (then also slide the foot back "
            + "under the chair and return).",
        allowedValues: MeasurementProtocol.allCases.map(\.rawValue))

    /// The chosen protocol, nil when the option is absent.
    static func value(in values: ParsedValues) -> MeasurementProtocol? {
        values.string(option).flatMap(MeasurementProtocol.init(rawValue:))
    }
}
