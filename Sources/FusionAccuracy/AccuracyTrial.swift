import Fusion
import Sampling
import Sensor

#if canImport(Glibc)
import Glibc
#endif

/// One simulated measurement with ground truth. A sensor with the errors of one ``ErrorSource``,
/// strapped as ``Strapping`` says (at a random rotation unless asked otherwise), is calibrated (or
/// not) by the very procedure `romdev calibrate` runs (``GuidedCalibration`` over the simulated
/// `calibration` scenario: gyro bias at rest, the six faces and a seventh pose, the turns between
/// them for both sensors' correction matrices, the strapped start pose and a knee swing for the
/// mounting) with the die at 25 °C, then read through the MPU-6050 driver, warmer, while the
/// patient extends the knee. The samples go through the same pipeline as `romdev measure`, the
/// calibration's mounting included, until the session ends by itself or times out. Without
/// calibration the samples are used as read and the session finds the mounting itself. With the
/// arc protocol the patient also slides the foot back under the chair (``KneeArc``) and the session
/// follows both steps.
public struct AccuracyTrial: Sendable {
    /// How the host reads the FIFO.
    public enum HostLoad: String, Sendable {
        /// A read every 50 ms.
        case idle
        /// Reads 5–100 ms apart, and one in ten after a stall of 0.2–0.4 s (within the FIFO's 0.43 s
        /// at 200 Hz).
        case loaded
        /// Reads 5–100 ms apart, and one in a hundred after a stall of 0.5–0.8 s: past the FIFO's
        /// 0.43 s, which then overflows and is reset, losing up to 0.8 s of samples (a board writing
        /// its SD card, or swapping), about once in five seconds.
        case overflowing

        /// Seconds until the host's next read.
        func nextWait(_ random: inout SplitMix64) -> Double {
            switch self {
            case .idle: return 0.05
            case .loaded:
                let stalled = random.nextUnit() < 0.1
                return stalled ? uniform(0.2, 0.4, &random) : uniform(0.005, 0.1, &random)
            case .overflowing:
                let stalled = random.nextUnit() < 0.01
                return stalled ? uniform(0.5, 0.8, &random) : uniform(0.005, 0.1, &random)
            }
        }
    }

    public var seed: UInt64
    public var source: ErrorSource
    public var calibrated: Bool
    public var measurementProtocol: MeasurementProtocol
    /// Whether a thigh sensor is fitted too (see ``runWithThighSensor()``).
    public var thighSensor: Bool
    /// How the boards are strapped on.
    public var strapping: Strapping
    /// Where the patient's shin rests, degrees forward of vertical, when the calibration asks for
    /// it hanging vertical: the one-sensor knee angles take that pose as 90° of flexion.
    public var calibrationShinDegrees = 3.0
    /// How the host reads the FIFO during the calibration; `nil`: as ``ErrorSource`` says.
    public var calibrationLoad: HostLoad?

    public init(
        seed: UInt64, source: ErrorSource = .all, calibrated: Bool = true,
        measurementProtocol: MeasurementProtocol = .extension, thighSensor: Bool = false,
        strapping: Strapping = .anyRotation
    ) {
        self.seed = seed
        self.source = source
        self.calibrated = calibrated
        self.measurementProtocol = measurementProtocol
        self.thighSensor = thighSensor
        self.strapping = strapping
    }

    /// What came out, against the truth.
    public struct Outcome: Sendable {
        public var trueRange: Double
        /// The true knee angles under the seated assumption (90° − the true inclination), over what
        /// the session saw: exact for a still thigh. `nan` without a measurement.
        public var trueKneeExtension = Double.nan
        public var trueKneeFlexion = Double.nan
        public var result: RangeOfMotionResult?
        public var endReason: MeasurementSession.EndReason?
        /// Why the guided calibration refused the simulated procedure, when it did.
        public var calibrationRefusal: CalibrationError?
        /// The faces the calibration asked to turn up again for tips that lost samples.
        public var calibrationRetakes = 0
        /// `result.range − trueRange`, degrees; `nan` without a result.
        public var rangeError: Double { (result?.range ?? .nan) - trueRange }
        /// The knee angles' errors, degrees; `nan` without a result.
        public var kneeExtensionError: Double { (result?.kneeExtension ?? .nan) - trueKneeExtension }
        public var kneeFlexionError: Double { (result?.kneeFlexion ?? .nan) - trueKneeFlexion }
        public var kneeArcError: Double { (result?.kneeArc ?? .nan) - (trueKneeFlexion - trueKneeExtension) }
        /// Squared gravity-direction errors (degrees²) summed over the samples in motion, and their count.
        public var motionSquaredError: Double
        public var motionSamples: Int
        public var samples: Int
        public var lostSamples: Int

        /// A trial whose guided calibration refused the simulated procedure: no measurement.
        static func refused(_ refusal: CalibrationError) -> Outcome {
            Outcome(
                trueRange: .nan, calibrationRefusal: refusal, motionSquaredError: 0, motionSamples: 0, samples: 0,
                lostSamples: 0)
        }
    }

    /// Runs the trial.
    /// - Throws: `MPU6050Error` if the simulated driver fails (it should not).
    public func run() throws -> Outcome {
        if thighSensor { return try runWithThighSensor() }
        var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17)
        let errors = source.errors(seed: seed, random: &random)
        let mounting = strapping.mounting(&random)
        let load = source.load
        var calibration = Calibration.identity
        var retakes = 0
        if calibrated {
            do {
                (calibration, retakes) = try calibrate(
                    errors: errors, mounting: mounting, load: calibrationLoad ?? source.calibrationLoad,
                    random: &random)
            } catch let refusal as CalibrationError {
                return .refused(refusal)
            }
        }
        let rest = uniform(-5, 15, &random)
        let movement = Self.movement(
            measurementProtocol, rest: rest, leadIn: source.leadInSeconds, random: &random)
        let scenario = SimulationScenario(
            motion: MotionModel(movement: movement, mounting: mounting, thighMovement: source.thigh(random: &random)),
            errors: errors, seed: seed)

        var session = MeasurementSession(
            parameters: SessionParameters(measurementProtocol: measurementProtocol),
            calibration: calibrated ? calibration : nil)
        var squaredError = 0.0, motionSamples = 0, samples = 0
        var truths: [Double] = []
        let toBoard = mounting.transposed
        // Until the session ends by itself, or a little past its time-out.
        let seconds = max(scenario.motion.durationSeconds, session.parameters.timeout + 1)
        let lost = try record(scenario, seconds: seconds, load: load, random: &random) { raw, truth in
            guard !session.isFinished else { return false }
            session.update(raw)
            samples += 1
            truths.append(truth)
            guard truth.isFinite, abs(truth - rest) > 1 else { return true }
            let theta = truth * Double.pi / 180
            let up = toBoard * SIMD3(sin(theta), 0, cos(theta))
            let error = session.filter.gravity.angle(to: Vector3(up.x, up.y, up.z)) * 180 / Double.pi
            squaredError += error * error
            motionSamples += 1
            return true
        }
        session.stop()
        // The true range over what the session saw.
        let seen = truths.filter(\.isFinite)
        let trueRange = (seen.max() ?? 0) - (seen.min() ?? 0)
        var endReason: MeasurementSession.EndReason?
        if case .finished(let reason) = session.phase { endReason = reason }
        return Outcome(
            trueRange: trueRange, trueKneeExtension: KneeAngle.flexion(shankInclination: seen.max() ?? .nan),
            trueKneeFlexion: KneeAngle.flexion(shankInclination: seen.min() ?? .nan), result: session.result(),
            endReason: endReason, calibrationRefusal: nil, calibrationRetakes: retakes,
            motionSquaredError: squaredError, motionSamples: motionSamples, samples: samples, lostSamples: lost)
    }

    /// What the patient does after resting for `leadIn` seconds: an extension from `rest` (peak
    /// 45…110°), or the arc, whose flexion step takes the shank 10…45° past vertical (knee flexion
    /// 100…135°), and at least 15° back from the rest, enough to leave the start pose.
    static func movement(
        _ measurementProtocol: MeasurementProtocol, rest: Double, leadIn: ClosedRange<Double>,
        random: inout SplitMix64
    ) -> MotionModel.Movement {
        switch measurementProtocol {
        case .extension:
            return .kneeExtension(
                KneeExtension(
                    restDegrees: rest, peakDegrees: uniform(45, 110, &random),
                    peakSpeedDegreesPerSecond: uniform(45, 200, &random), holdSeconds: uniform(0.5, 2.5, &random),
                    returnDegrees: rest + uniform(-3, 3, &random),
                    leadInSeconds: uniform(leadIn.lowerBound, leadIn.upperBound, &random), leadOutSeconds: 4.5))
        case .arc:
            return .kneeArc(
                KneeArc(
                    restDegrees: rest, extensionDegrees: uniform(45, 110, &random),
                    returnDegrees: rest + uniform(-3, 3, &random),
                    flexionDegrees: min(-uniform(10, 45, &random), rest - 15),
                    peakSpeedDegreesPerSecond: uniform(45, 200, &random), holdSeconds: uniform(0.5, 2.5, &random),
                    leadInSeconds: uniform(leadIn.lowerBound, leadIn.upperBound, &random),
                    pauseSeconds: uniform(4, 5, &random), leadOutSeconds: 4.5))
        }
    }

    /// The guided calibration over the simulated procedure, with the die at a steady 25 °C (the
    /// measurement then runs warmer, leaving the residual offsets of real use), read with this
    /// trial's host timing.
    func calibrate(
        errors: SensorErrorModel, mounting: Rotation, load: HostLoad, random: inout SplitMix64
    ) throws -> (calibration: Calibration, retakes: Int) {
        var cool = errors
        cool.temperature = .constant(25)
        let motionSeed = random.next(), sensorSeed = random.next()
        let host = random
        // A person who does as the prompts say: when a tip lost samples, the procedure is done
        // again with the faces it asks for turned up after the seventh, the sensor and the host
        // the same up to there, so that the same tips lose their samples.
        var retakes: [String] = []
        while true {
            random = host
            let scenario = SimulationScenario(
                motion: MotionModel(
                    movement: .calibration(
                        .guided(
                            seed: motionSeed, shinDegrees: calibrationShinDegrees,
                            retakes: retakes.compactMap(GuidedCalibration.upAxis(ofFace:)).map {
                                SIMD3($0.x, $0.y, $0.z)
                            })),
                    mounting: mounting),
                errors: cool, seed: sensorSeed)
            var procedure = GuidedCalibration()
            var refusal: CalibrationError?
            // Every face asked for again, plan by plan (a plan is made whole, then taken face by face).
            var asked: [String] = []
            var planned = 0
            // The scripted motion ends 3 s after the swing; the person then sits still until the
            // procedure says it is done, as the prompts ask, rather than walking off on the dot.
            let seconds = scenario.motion.durationSeconds + Self.stillUntilDoneSeconds
            _ = try record(scenario, seconds: seconds, load: load, random: &random) {
                sample, _ in
                guard refusal == nil, procedure.step != .finished else { return false }
                do throws(CalibrationError) {
                    try procedure.update(sample)
                } catch {
                    refusal = error
                }
                let plan = procedure.retakeFaces
                if plan.count > planned { asked += plan }
                planned = plan.count
                // Asked for faces the motion does not turn up: the person stops to do them.
                return asked.count <= retakes.count
            }
            if let refusal { throw refusal }
            if asked.count > retakes.count {
                retakes = asked
                continue
            }
            guard let calibration = procedure.calibration, procedure.step == .finished else {
                throw CalibrationError.stepTimedOut(step: "\(procedure.step)", seconds: seconds)
            }
            return (calibration, retakes.count)
        }
    }

    /// How long the simulated person stays still after the calibration's scripted motion, waiting
    /// for the procedure to finish, seconds.
    static let stillUntilDoneSeconds = 5.0

    /// Reads the scenario through the driver on a manual clock with the host timing of `load`,
    /// handing each raw sample and its true inclination to `body` until it returns false.
    /// - Returns: the samples lost to FIFO overflows.
    private func record(
        _ scenario: SimulationScenario, seconds: Double, load: HostLoad, random: inout SplitMix64,
        _ body: (InertialSample, Double) -> Bool
    ) throws -> Int {
        let clock = ManualClock()
        let simulator = SimulatedMPU6050(scenario: scenario, clock: clock)
        let sensor = try MPU6050(bus: simulator, address: scenario.address, clock: clock)
        try sensor.configure(.standard)
        let total = Int((seconds * Double(MPU6050Configuration.standard.sampleRateHz)).rounded())
        var covered = 0, lost = 0
        while covered < total {
            clock.sleep(seconds: load.nextWait(&random))
            let batch = try sensor.readSamples()
            if let gap = batch.gap {
                lost += gap.count
                covered += gap.count
            }
            for sample in batch.samples where sample.index < total {
                let truth = simulator.truthInclinationDegrees(forSampleIndex: sample.index) ?? .nan
                guard body(InertialSample(sample), truth) else { return lost }
            }
            covered += batch.samples.count
        }
        return lost
    }
}

func uniform(_ low: Double, _ high: Double, _ random: inout SplitMix64) -> Double {
    low + (high - low) * random.nextUnit()
}
