import Sensor

#if canImport(Glibc)
import Glibc
#endif

/// One source of measurement error, simulated alone at datasheet magnitude over datasheet noise, or
/// all of them together: the rows of the accuracy bench.
public enum ErrorSource: String, CaseIterable, Sendable {
    /// Datasheet noise only: the floor of the others.
    case noise = "noise only"
    case gyroScale = "gyro scale ±3 %"
    case gyroCrossAxis = "gyro cross-axis ±2 %"
    case accelScale = "accel scale ±3 %"
    case accelCrossAxis = "accel cross-axis ±2 %"
    case accelOffsets = "accel offsets ±50/80 mg"
    /// The gyro's zero-rate output and its change as the die warms, measured at a die temperature
    /// up to 9 °C from the calibration's.
    case gyroBiasDrift = "gyro bias + temp. drift"
    case clockError = "sample clock ±1 %"
    /// The gyro's zero moving with the pose, by its sensitivity to acceleration: 0.1 °/s per g on a
    /// typical axis, so up to a few tenths of °/s between two poses.
    case gyroAccelerationSensitivity = "gyro g-sens. 0.1 °/s/g"
    /// The thigh swaying ±0.5…1.5° over 6…15 s and drifting 0.5…2° either way over 6…20 s,
    /// turning the shank with it.
    case thighMotion = "thigh sway and drift"
    /// The same with the thigh swaying ±2…3° and drifting 1…3°: a patient who shifts on the chair
    /// while holding the leg up.
    case largeThighMotion = "thigh ±2…3°"
    /// Reads 5–100 ms apart, one in ten after a stall of 0.2–0.4 s.
    case hostJitter = "host jitter, stalls"
    case all = "all of the above"
    /// Every sensor and host error with the thigh swaying ±2…3° and drifting 1…3°, as
    /// ``largeThighMotion``: the thigh motion the thigh sensor is there to take out.
    case allLargeThigh = "all, thigh ±2…3°"
    /// Every sensor and host error with the thigh still: what the device itself contributes, as a
    /// single sensor cannot tell the thigh's turn from the knee's.
    case allButThigh = "all but the thigh"
    /// A part as it comes, without calibration in mind: accelerometer offsets of 5–30 mg and
    /// sensitivities within ±1.5 % on both sensors.
    case typicalPart = "5–30 mg, ±1.5 % scale"
    /// Every sensor and host error with the thigh still, and a patient who starts 0.5…1.2 s into
    /// the session, before the start's rest can be confirmed: an uncalibrated gyro's bias is then
    /// known only from the hold or the final rest.
    case earlyStart = "all but thigh, early go"
    /// Every sensor error with the thigh still, read by a host that now and then stalls past the
    /// FIFO's capacity: samples are lost, some in the middle of a movement.
    case fifoOverflows = "all but thigh, overflows"

    /// The sensor's errors for a trial drawn from `seed`; each source keeps its part of the
    /// datasheet draw of that seed, so rows of one seed share the device.
    func errors(seed: UInt64, random: inout SplitMix64) -> SensorErrorModel {
        let datasheet = SensorErrorModel.datasheet(seed: seed)
        var errors = SensorErrorModel.noiseOnly
        // The measurement's die: warming from 26…34 °C towards 6 °C more, with a 2-minute time
        // constant; calibration is at 25 °C.
        let start = 26 + 8 * random.nextUnit()
        errors.temperature = DieTemperature(startCelsius: start, settledCelsius: start + 6, timeConstantSeconds: 120)
        switch self {
        case .noise, .thighMotion, .largeThighMotion, .hostJitter: break
        case .gyroScale: errors.gyroSensitivity = datasheet.gyroSensitivity.diagonalOnly
        case .gyroCrossAxis: errors.gyroSensitivity = datasheet.gyroSensitivity.crossAxisOnly
        case .accelScale: errors.accelSensitivity = datasheet.accelSensitivity.diagonalOnly
        case .accelCrossAxis: errors.accelSensitivity = datasheet.accelSensitivity.crossAxisOnly
        case .accelOffsets:
            errors.accelOffsetG = datasheet.accelOffsetG
            errors.accelOffsetDriftPerCelsius = datasheet.accelOffsetDriftPerCelsius
        case .gyroBiasDrift:
            errors.gyroOffsetDPS = datasheet.gyroOffsetDPS
            errors.gyroOffsetDriftPerCelsius = datasheet.gyroOffsetDriftPerCelsius
        case .clockError: errors.sampleClockError = datasheet.sampleClockError
        case .gyroAccelerationSensitivity: errors.gyroAccelerationSensitivity = datasheet.gyroAccelerationSensitivity
        case .all, .allLargeThigh, .allButThigh, .earlyStart, .fifoOverflows:
            let temperature = errors.temperature
            errors = datasheet
            errors.temperature = temperature
        case .typicalPart:
            func offset() -> Double { (random.nextUnit() < 0.5 ? -1 : 1) * (0.005 + 0.025 * random.nextUnit()) }
            func scale() -> SIMD3<Double> {
                let g = SIMD3(random.nextGaussian(), random.nextGaussian(), random.nextGaussian()) * 0.005
                return g.clamped(lowerBound: SIMD3(repeating: -0.015), upperBound: SIMD3(repeating: 0.015))
            }
            errors.accelOffsetG = SIMD3(offset(), offset(), offset())
            errors.accelSensitivity = SensitivityMatrix(scaleError: scale())
            errors.gyroSensitivity = SensitivityMatrix(scaleError: scale())
        }
        return errors
    }

    /// The thigh's movement during the measurement.
    func thigh(random: inout SplitMix64) -> ThighMovement {
        guard self == .thighMotion || self == .largeThighMotion || self == .all || self == .allLargeThigh else {
            return .none
        }
        let large = self == .largeThighMotion || self == .allLargeThigh
        let amplitude = (large ? 2 : 0.5) + random.nextUnit(), period = 6 + 9 * random.nextUnit()
        let phase = 2 * Double.pi * random.nextUnit()
        let drift =
            (random.nextUnit() < 0.5 ? -1 : 1) * (large ? 1 + 2 * random.nextUnit() : 0.5 + 1.5 * random.nextUnit())
        return ThighMovement(
            amplitudeDegrees: amplitude, periodSeconds: period, phase: phase, driftDegrees: drift,
            driftSeconds: 6 + 14 * random.nextUnit())
    }

    var load: AccuracyTrial.HostLoad {
        if self == .fifoOverflows { return .overflowing }
        return self == .hostJitter || self == .all || self == .allLargeThigh || self == .allButThigh
            || self == .earlyStart
            ? .loaded : .idle
    }

    /// How the host reads the FIFO during the calibration: on the overflows' own host the
    /// procedure asks for tips again and refuses nearly half the calibrations (measured apart,
    /// `FusionBench.calibrationOnAStallingHost`), so its row is calibrated on a host that kept up.
    var calibrationLoad: AccuracyTrial.HostLoad { self == .fifoOverflows ? .loaded : load }

    /// Seconds the leg rests before it moves: 2…3 s, the still start the session asks for, but for
    /// ``earlyStart``.
    var leadInSeconds: ClosedRange<Double> { self == .earlyStart ? 0.5...1.2 : 2...3 }
}
