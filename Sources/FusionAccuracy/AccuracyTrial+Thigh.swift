import Fusion
import Sampling
import Sensor

extension AccuracyTrial {
    /// The trial with a thigh sensor, with ground truth: the errors of ``source`` (``ErrorSource/all``:
    /// datasheet errors and a loaded host; or another source) and, whatever the source, the thigh
    /// swaying ±2…3° and drifting 1…3° (``ErrorSource/largeThighMotion``, the motion the thigh
    /// sensor is there to take out), read from two sensors on one leg. The thigh's board is a
    /// second part with errors of its own drawn alike, strapped alike (the same rotation on its
    /// segment as the shank's, ``MotionModel/onThigh(mounting:)``, drawn as ``strapping`` says).
    /// Each board runs on its own sample clock; each tick drains both FIFOs and pairs their samples
    /// as the live runner does (``SensorPairAligner``). Calibrated, each sensor goes through the guided
    /// calibration's procedure and the session gets both corrections; the hinge axes are those of
    /// boards strapped alike. The outcome's knee angles are the knee's own: 90° minus the shank's
    /// inclination from the thigh's perpendicular.
    /// - Throws: `MPU6050Error` if a simulated driver fails (it should not).
    func runWithThighSensor() throws -> Outcome {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17)
        let errors = source.errors(seed: seed, random: &random)
        // Another part of the same make, warming alike.
        var thighRandom = SplitMix64(seed: seed ^ 0x7416_0000_0000)
        var thighErrors = source.errors(seed: seed ^ 0x7416_0000_0000, random: &thighRandom)
        thighErrors.temperature = errors.temperature
        let mounting = strapping.mounting(&random)
        var calibration: Calibration?
        if calibrated {
            do {
                calibration = try calibrate(
                    errors: errors, mounting: mounting, load: source.calibrationLoad, random: &random
                ).calibration
                let thigh = try calibrate(
                    errors: thighErrors, mounting: mounting, load: source.calibrationLoad, random: &random
                ).calibration
                // Its strapped pose and swing were the shank's procedure; only the sensor's
                // correction is the thigh's.
                calibration?.thigh = ThighCalibration(sensor: thigh.sensor)
            } catch let refusal as CalibrationError {
                return .refused(refusal)
            }
        }
        let rest = uniform(-5, 15, &random)
        let movement = Self.movement(
            measurementProtocol, rest: rest, leadIn: source.leadInSeconds, random: &random)
        let leg = MotionModel(
            movement: movement, mounting: mounting, thighMovement: ErrorSource.largeThighMotion.thigh(random: &random))
        var knee = leg
        knee.thighMovement = .none
        let shank = SimulationScenario(motion: leg, errors: errors, seed: seed)
        let thigh = SimulationScenario(
            motion: leg.onThigh(mounting: mounting), errors: thighErrors, seed: seed ^ 0x7416, address: 0x69)

        var session = MeasurementSession(
            parameters: SessionParameters(measurementProtocol: measurementProtocol), calibration: calibration)
        var truths: [Double] = []
        let seconds = max(leg.durationSeconds, session.parameters.timeout + 1)
        let lost = try Self.recordPairs(shank, thigh, seconds: seconds, load: source.load, random: &random) {
            pair, truthSeconds in
            guard !session.isFinished else { return false }
            session.update(InertialSample(pair.shank), thigh: InertialSample(pair.thigh))
            truths.append(truthSeconds.map { knee.state(atSeconds: $0).inclinationDegrees } ?? .nan)
            return true
        }
        session.stop()
        let seen = truths.filter(\.isFinite)
        var endReason: MeasurementSession.EndReason?
        if case .finished(let reason) = session.phase { endReason = reason }
        return Outcome(
            trueRange: (seen.max() ?? 0) - (seen.min() ?? 0),
            trueKneeExtension: KneeAngle.flexion(shankInclination: seen.max() ?? .nan),
            trueKneeFlexion: KneeAngle.flexion(shankInclination: seen.min() ?? .nan), result: session.result(),
            endReason: endReason, calibrationRefusal: nil, motionSquaredError: 0, motionSamples: 0,
            samples: session.sampleCount, lostSamples: lost)
    }

    /// Reads both scenarios through the driver, each on a manual clock of its own that the host's
    /// ticks (with the timing of `load`) advance alike, pairs their samples and
    /// hands each pair, with the motion's instant of the shank's sample, to `body` until it
    /// returns false.
    /// - Returns: the shank samples lost to FIFO overflows.
    private static func recordPairs(
        _ shank: SimulationScenario, _ thigh: SimulationScenario, seconds: Double, load: HostLoad,
        random: inout SplitMix64,
        _ body: (SensorPairAligner.Pair, Double?) -> Bool
    ) throws -> Int {
        let shankClock = ManualClock(), thighClock = ManualClock()
        let shankSimulator = SimulatedMPU6050(scenario: shank, clock: shankClock)
        let thighSimulator = SimulatedMPU6050(scenario: thigh, clock: thighClock)
        let shankSensor = try MPU6050(bus: shankSimulator, address: shank.address, clock: shankClock)
        let thighSensor = try MPU6050(bus: thighSimulator, address: thigh.address, clock: thighClock)
        // The same bring-up on clocks that start alike: both boards start sampling at one instant,
        // that of the leg's motion.
        try shankSensor.configure(.standard)
        try thighSensor.configure(.standard)
        let configuration = MPU6050Configuration.standard
        var aligner = SensorPairAligner(nominalPeriod: 1 / Double(configuration.sampleRateHz))
        let total = Int((seconds * Double(configuration.sampleRateHz)).rounded())
        var covered = 0, lost = 0
        var going = true
        while going && covered < total {
            let wait = load.nextWait(&random)
            shankClock.advance(by: wait)
            thighClock.advance(by: wait)
            let shankBatch = try shankSensor.readSamples(), thighBatch = try thighSensor.readSamples()
            if let gap = shankBatch.gap {
                lost += gap.count
                covered += gap.count
            }
            covered += shankBatch.samples.count
            aligner.add(shank: shankBatch.samples, thigh: thighBatch.samples, drainedAt: shankClock.now) { pair in
                guard going, pair.shank.index < total else { return }
                going = body(pair, shankSimulator.truthSeconds(forSampleIndex: pair.shank.index))
            }
        }
        return lost
    }
}
