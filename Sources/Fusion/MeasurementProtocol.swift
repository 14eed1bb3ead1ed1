/// What the patient is guided through in one session.
public enum MeasurementProtocol: String, CaseIterable, Hashable, Sendable, Codable {
    /// Seated, from the hanging shin: extend the knee as far as possible and return. Measures
    /// extension; the flexion it reports is the start pose's (about 90°).
    case `extension`
    /// Seated, the full arc: extend as far as possible and return, then slide the foot back under
    /// the chair as far as possible (flexion past 90°) and return.
    case arc
}

/// The knee joint angle in the clinical convention: 0° with the leg straight, flexion positive,
/// hyperextension negative.
///
/// One sensor on the shank measures the shank's inclination (see ``Mounting``); the knee angle is
/// the angle between shank and thigh, so it needs the thigh's inclination as well. Seated, the
/// thigh is taken as horizontal and still (inclination 0); a sensor on the thigh would supply it.
public enum KneeAngle {
    /// Knee flexion, degrees, from the shank's sagittal inclination (0 = shin vertical, positive
    /// toward extension) and the thigh's pitch (0 = horizontal, positive raising the knee, which
    /// turns the shank by the same angle): 90° with the shin hanging under a horizontal thigh, 0°
    /// with the shank in line with the thigh, above 90° with the foot under the chair.
    public static func flexion(shankInclination: Double, thighPitch: Double = 0) -> Double {
        90 + thighPitch - shankInclination
    }

    /// The shank inclination under a level thigh that gives the knee flexion `flexion`: the inverse
    /// of ``flexion(shankInclination:thighPitch:)``, in which a session with a thigh sensor states
    /// its angles.
    public static func seatedInclination(flexion: Double) -> Double {
        90 - flexion
    }
}

/// Where a result's knee angles come from.
public enum KneeAngleSource: String, CaseIterable, Hashable, Sendable, Codable {
    /// One shank sensor, under the seated assumption: the thigh level and still.
    case seatedAssumption = "seated-assumption"
    /// Both sensors' orientations, the knee as a hinge: no assumption about the thigh.
    case thighSensor = "thigh-sensor"
}
