/// How two sensors sit on the leg, one on the thigh and one on the shank, for the knee angle from
/// both: each sensor's ``Mounting`` about the knee's own axis.
///
/// The knee angle is the shank's rotation relative to the thigh about the hinge. Each sensor's
/// sagittal angle is its gravity direction's angle about that axis; a turn of the whole leg about
/// the axis changes both alike and cancels in their difference, and a turn about any other axis
/// changes neither. So the knee angle needs no assumption about the thigh's posture and no
/// heading, only the axes and one reference pose whose flexion is known.
public struct LegMounting: Hashable, Sendable, Codable {
    /// The shank sensor's mounting: its shin axis is its gravity direction in the reference pose,
    /// its hinge the knee's axis oriented so that extension is positive.
    public var shank: Mounting
    /// The thigh sensor's mounting: its gravity direction in the reference pose and the same
    /// physical hinge axis, so that a turn of the whole leg moves both angles alike.
    public var thigh: Mounting
    /// The knee flexion of the reference pose, degrees.
    public var referenceFlexion: Double

    /// The reference pose of `romdev calibrate`: seated, thigh level on the chair, shin hanging.
    public static let seatedFlexion = 90.0

    /// Creates a mounting from the hinge axes (the shank's oriented so that extension is a positive
    /// rotation of the shank about it) and both sensors' gravity directions in a still reference
    /// pose. Returns `nil` when a gravity direction lies along its hinge axis.
    public init?(
        axes: HingeAxes, thighGravity: Vector3, shankGravity: Vector3, referenceFlexion: Double = seatedFlexion
    ) {
        guard let shank = Mounting(shinAxis: shankGravity, hingeAxis: axes.shank),
            let thigh = Mounting(shinAxis: thighGravity, hingeAxis: axes.thigh)
        else { return nil }
        self.shank = shank
        self.thigh = thigh
        self.referenceFlexion = referenceFlexion
    }

    /// The knee flexion in degrees, in the clinical convention (0 straight, flexion positive,
    /// hyperextension negative), from both sensors' gravity directions; in (referenceFlexion − 180,
    /// referenceFlexion + 180].
    public func kneeFlexion(thighGravity: Vector3, shankGravity: Vector3) -> Double {
        let extensionFromReference =
            shank.sagittalAngle(gravity: shankGravity) - thigh.sagittalAngle(gravity: thighGravity)
        return referenceFlexion - AngleUnwrapper.halfTurn(extensionFromReference)
    }
}
