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
    /// Samples were lost during this many turns between still poses (the host fell behind the
    /// sensor's FIFO), and the turns left do not tip each axis twice.
    case samplesLost(turns: Int)
    /// The fitted values are outside the sensor's datasheet tolerances, or do not fit the poses.
    case implausibleFit(String)
    /// The swing did not rotate the shin enough to show the knee's hinge axis (degrees).
    case tooLittleRotation(degrees: Double)
    /// A step of the guided procedure did not complete in time.
    case stepTimedOut(step: String, seconds: Double)
    /// The knee-axis step got no thigh samples: no thigh sensor is fitted or read.
    case needsThighSensor
    /// The knee-axis step needs the shank sensor's place on the shin (its hinge axis, which tells
    /// extension from flexion) from its own calibration first.
    case needsShankMounting
    /// The lower leg swung fewer times than the knee-axis step needs.
    case tooFewSwings(counted: Int, needed: Int)
    /// The thigh hardly turned during the swings (its rate across the knee's axis, °/s), so its
    /// axis cannot be found.
    case thighTooStill(degreesPerSecond: Double)
    /// The swings did not fit one hinge closely (the fit's residual against the motion, °/s): the
    /// boards slipped or a strap is loose.
    case hingeNotDetermined(residual: Double, motion: Double)
    /// The knee's axis found in the shank board's frame is this far (degrees) from the one its own
    /// calibration found: the board was strapped on anew since.
    case hingeDisagreesWithMounting(degrees: Double)

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
        case let .samplesLost(turns):
            "samples were lost during \(turns) turn\(turns == 1 ? "" : "s") (the computer fell behind the sensor), so "
                + "the turns left do not tip each axis twice; stop other work on the board and calibrate again"
        case let .implausibleFit(reason):
            "the fit is implausible: \(reason)"
        case let .tooLittleRotation(degrees):
            "the leg turned only \(rounded(degrees))°; swing it up and back down"
        case let .stepTimedOut(step, seconds):
            "the step '\(step)' did not complete within \(Int(seconds)) s"
        case .needsThighSensor:
            "the knee-axis step needs the thigh sensor, and none is read; fit it and strap it to the thigh"
        case .needsShankMounting:
            "the knee-axis step needs the shank sensor calibrated on the shin first (its knee swing)"
        case let .tooFewSwings(counted, needed):
            "the lower leg swung \(counted) time\(counted == 1 ? "" : "s"); let it swing freely at least \(needed) "
                + "times, bending and straightening the knee, then hold still"
        case let .thighTooStill(rate):
            "the thigh hardly moved (\(rounded(rate)) °/s); while the lower leg swings, move the thigh a little "
                + "too: lift the knee a few centimetres and turn it in and out"
        case let .hingeNotDetermined(residual, motion):
            "the swings do not fit one knee axis (residual \(rounded(residual)) °/s against \(rounded(motion)) °/s "
                + "of motion); check that both straps are tight and swing again"
        case let .hingeDisagreesWithMounting(degrees):
            "the knee's axis is \(rounded(degrees))° from the one the shank sensor's calibration found; "
                + "if the sensor was strapped on again, calibrate it again first"
        }
    }
}

private func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
