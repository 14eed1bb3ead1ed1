import CareStorage
import Fusion

extension MeasurementProtocol {
    /// The session protocol that carries out what the care plan's task asks for.
    public init(_ planned: RangeOfMotionProtocol) {
        switch planned {
        case .extension: self = .extension
        case .arc: self = .arc
        }
    }
}
