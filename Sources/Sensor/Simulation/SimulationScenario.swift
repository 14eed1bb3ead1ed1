/// Everything that fixes a simulated session: what the shank does, how the sensor errs, which part
/// answers at which address, and the seed of the noise, so that a scenario replays exactly.
public struct SimulationScenario: Equatable, Sendable {
    /// What the shank does, and how the board sits on it.
    public var motion: MotionModel
    /// How the sensor errs (`.ideal`, `.noiseOnly`, `.datasheet(seed:)`, or set by field).
    public var errors: SensorErrorModel
    /// Seeds the per-sample noise (and, for the named scenarios, the drawn sensor errors).
    public var seed: UInt64
    /// Which family member answers WHO_AM_I.
    public var part: MPU6050Part
    /// 0x68 or 0x69.
    public var address: UInt8

    public init(
        motion: MotionModel, errors: SensorErrorModel, seed: UInt64, part: MPU6050Part = .mpu6050,
        address: UInt8 = MPU6050.defaultAddress
    ) {
        self.motion = motion
        self.errors = errors
        self.seed = seed
        self.part = part
        self.address = address
    }

    /// The board lying still with the shin vertical; datasheet errors drawn from `seed`.
    public static func still(seed: UInt64 = 0, inclinationDegrees: Double = 0) -> SimulationScenario {
        SimulationScenario(
            motion: MotionModel(movement: .still(inclinationDegrees: inclinationDegrees)),
            errors: .datasheet(seed: seed), seed: seed)
    }

    /// One seated knee extension to `peakDegrees`, with a little thigh movement; datasheet errors
    /// drawn from `seed`.
    public static func kneeExtension(
        seed: UInt64 = 0, peakDegrees: Double = 70, mounting: Rotation = .identity
    ) -> SimulationScenario {
        SimulationScenario(
            motion: MotionModel(
                movement: .kneeExtension(KneeExtension(peakDegrees: peakDegrees)), mounting: mounting,
                thighMovement: .small),
            errors: .datasheet(seed: seed), seed: seed)
    }

    /// The full seated arc (extension to 75°, then the foot under the chair to −30°, a knee flexion
    /// of 120°), with a little thigh movement; datasheet errors drawn from `seed`.
    public static func kneeArc(seed: UInt64 = 0, mounting: Rotation = .identity) -> SimulationScenario {
        SimulationScenario(
            motion: MotionModel(movement: .kneeArc(KneeArc()), mounting: mounting, thighMovement: .small),
            errors: .datasheet(seed: seed), seed: seed)
    }

    /// The guided calibration at a person's pace (under 50 s): still on a table, the six faces,
    /// strapped to the shin with `mounting`, one knee swing; datasheet errors drawn from `seed`
    /// (so the same seed is the same sensor as in `kneeExtension`, strapped the same way by
    /// default), the die at a steady `temperatureCelsius` when given.
    public static func calibration(
        seed: UInt64 = 0, mounting: Rotation = .identity, temperatureCelsius: Double? = nil
    ) -> SimulationScenario {
        var errors = SensorErrorModel.datasheet(seed: seed)
        if let temperatureCelsius { errors.temperature = .constant(temperatureCelsius) }
        return SimulationScenario(
            motion: MotionModel(movement: .calibration(.guided(seed: seed)), mounting: mounting),
            errors: errors, seed: seed)
    }

    /// The calibration's knee-axis step, seated with the thigh board on too (``thighBoard(mounting:seed:)``, which `--simulate` fits):
    /// free knee swings, the thigh moving `thighDegrees` in each direction; the shank board
    /// strapped with `mounting` and datasheet errors drawn from `seed`, as in `calibration`.
    public static func kneeSwings(
        seed: UInt64 = 0, mounting: Rotation = .identity, thighDegrees: Double = 6
    ) -> SimulationScenario {
        SimulationScenario(
            motion: MotionModel(
                movement: .kneeSwings(.seated(seed: seed, thighDegrees: thighDegrees)), mounting: mounting),
            errors: .datasheet(seed: seed), seed: seed)
    }

    /// Names accepted by `named(_:seed:)` (and `--simulate=NAME`).
    public static let names = ["calibration", "knee-arc", "knee-extension", "knee-swings", "still"]

    /// A scenario by name: `still`, `knee-extension`, `knee-arc`, `calibration` or `knee-swings`.
    public static func named(_ name: String, seed: UInt64) -> SimulationScenario? {
        switch name {
        case "still": still(seed: seed)
        case "knee-extension": kneeExtension(seed: seed)
        case "knee-arc": kneeArc(seed: seed)
        case "calibration": calibration(seed: seed)
        case "knee-swings": kneeSwings(seed: seed)
        default: nil
        }
    }

    /// The thigh's part doing what this board does (on the table, for its calibration): another
    /// part, so its own errors and noise drawn from `seed` (by default one derived from this
    /// board's). Its sample clock differs from this board's by 0.4 %, toward the middle of the
    /// datasheet's ±1 %, so that on the leg the two streams drift apart by about one sample a second
    /// at 200 Hz and pairing them is always exercised.
    public func thighPart(seed thighSeed: UInt64? = nil) -> SimulationScenario {
        let thighSeed = thighSeed ?? seed ^ 0x7416_B0A2_D5EC_0D01
        var thighErrors = errors == .ideal || errors == .noiseOnly ? errors : .datasheet(seed: thighSeed)
        let offset = errors.sampleClockError < 0 ? 0.004 : -0.004
        thighErrors.sampleClockError = errors.sampleClockError + offset
        return SimulationScenario(motion: motion, errors: thighErrors, seed: thighSeed, part: part, address: address)
    }

    /// The thigh's part strapped to the thigh of the same leg (``MotionModel/onThigh(mounting:)``),
    /// by default as the wiring guide prescribes (board x toward the knee, z up out of the thigh),
    /// answering at 0x69.
    public func thighBoard(mounting: Rotation = .identity, seed thighSeed: UInt64? = nil) -> SimulationScenario {
        var board = thighPart(seed: thighSeed)
        board.motion = motion.onThigh(mounting: mounting)
        board.address = MPU6050.alternateAddress
        return board
    }
}
