/// Why a calibration step refused its input.
public enum CalibrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The window held fewer samples than the step needs.
    case tooFewSamples(needed: Int, got: Int)
    /// The device moved during a window that had to be still. Deviations are the largest of the
    /// window from its mean: gyro in °/s, accelerometer in g.
    case moved(gyroDeviation: Double, accelerationDeviation: Double)
    /// The multi-position procedure got fewer still poses than unknowns.
    case tooFewPoses(needed: Int, got: Int)
    /// The poses do not point each axis both up and down, so offset and scale cannot be separated.
    case posesNotSpread
    /// The turns between still poses do not go about this axis ("x", "y" or "z") from two faces
    /// at right angles, so its part of the gyro correction cannot be told from a rotation about
    /// the vertical.
    case turnsNotSpread(axis: String)
    /// The fitted values are outside the sensor's datasheet tolerances, or do not fit the poses.
    case implausibleFit(String)
    /// The swing did not rotate the shin enough to show the knee's hinge axis (degrees).
    case tooLittleRotation(degrees: Double)
    /// A step of the guided procedure did not complete in time.
    case stepTimedOut(step: String, seconds: Double)

    public var description: String {
        switch self {
        case let .tooFewSamples(needed, got):
            "too few samples: needed \(needed), got \(got)"
        case let .moved(gyro, acceleration):
            "the device moved (gyro varied by \(rounded(gyro)) °/s, accelerometer by \(rounded(acceleration)) g); keep it still and try again"
        case let .tooFewPoses(needed, got):
            "too few still positions: needed \(needed), got \(got)"
        case .posesNotSpread:
            "the positions do not turn each axis both up and down; place the device on all six faces"
        case let .turnsNotSpread(axis):
            "the turns do not tip the device about its \(axis) axis twice, from two faces at right angles; turn up the sides the prompts name, in their order"
        case let .implausibleFit(reason):
            "the fit is implausible: \(reason)"
        case let .tooLittleRotation(degrees):
            "the leg turned only \(rounded(degrees))°; swing it up and back down"
        case let .stepTimedOut(step, seconds):
            "the step \(step) did not complete within \(Int(seconds)) s"
        }
    }
}

private func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
