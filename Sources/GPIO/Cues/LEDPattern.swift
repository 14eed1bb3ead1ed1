/// Why the appliance shows an error: the number of LED blinks per group, for the patient's
/// phone call and the installer's table in hardware/README.md.
public enum FaultCode: Int, CaseIterable, Equatable, Sendable {
    /// 2 blinks: the motion sensor does not answer (wiring, I2C disabled).
    case sensorMissing = 2
    /// 3 blinks: a measurement failed (sensor fault, strap moved); nothing was stored.
    case measurementFailed = 3
    /// 4 blinks: the care store could not be written.
    case storageFailure = 4
}

/// What the LED shows. Each pattern is a timeline of on/off steps, starting when it is shown.
public enum LEDPattern: Equatable, Sendable {
    case off
    case on
    /// A measurement is due today: a short flash every 2 s, noticeable but calm.
    case due
    /// A session is running: an even 1 Hz blink.
    case measuring
    /// The outcome is stored: steady on for 3 s, then off.
    case success
    /// A fault: groups of `rawValue` blinks (250 ms on, 250 ms off), then 1.5 s dark, repeated.
    case fault(FaultCode)

    public var timeline: Timeline<Bool> {
        switch self {
        case .off:
            return .constant(false)
        case .on:
            return .constant(true)
        case .due:
            return Timeline(
                [.init(true, milliseconds: 100), .init(false, milliseconds: 1_900)], repeats: true, rest: false)
        case .measuring:
            return Timeline(
                [.init(true, milliseconds: 500), .init(false, milliseconds: 500)], repeats: true, rest: false)
        case .success:
            return Timeline([.init(true, milliseconds: 3_000)], repeats: false, rest: false)
        case .fault(let code):
            let blink: [Timeline<Bool>.Step] = [.init(true, milliseconds: 250), .init(false, milliseconds: 250)]
            let group = Array(repeating: blink, count: code.rawValue).flatMap { $0 }
            return Timeline(group + [.init(false, milliseconds: 1_500)], repeats: true, rest: false)
        }
    }
}
