import Fusion
import Sampling
import Sensor

#if canImport(Glibc)
import Glibc
#endif

/// One simulated measurement with ground truth: a sensor with datasheet errors, strapped at a random
/// rotation, is calibrated by the very procedure `romdev calibrate` runs (``GuidedCalibration`` over
/// the simulated `calibration` scenario: gyro bias at rest, six faces, the turns between them for the
/// gyro sensitivity, the strapped start pose and a knee swing for the mounting) at a cooler die
/// temperature, then read through the MPU-6050 driver while the patient extends the knee. The
/// samples go through the same pipeline as `romdev measure`, mounting from the calibration included.
public struct AccuracyTrial: Sendable {
    /// How the host reads the FIFO.
    public enum HostLoad: String, Sendable {
        /// A read every 50 ms.
        case idle
        /// Reads 5–100 ms apart, and one in ten after a stall of 0.2–0.4 s (within the FIFO's 0.43 s
        /// at 200 Hz).
        case loaded
    }

    public var seed: UInt64
    public var load: HostLoad
    /// Whether calibration includes the gyro sensitivity from three turns; off, it shows what the
    /// datasheet's ±3 % sensitivity and ±1 % clock errors cost uncorrected.
    public var calibratesGyroScale = true

    public init(seed: UInt64, load: HostLoad, calibratesGyroScale: Bool = true) {
        self.seed = seed
        self.load = load
        self.calibratesGyroScale = calibratesGyroScale
    }

    /// What came out, against the truth.
    public struct Outcome: Sendable {
        public var trueRange: Double
        public var result: RangeOfMotionResult?
        public var endReason: MeasurementSession.EndReason?
        /// `result.range − trueRange`, degrees; `nan` without a result.
        public var rangeError: Double { (result?.range ?? .nan) - trueRange }
        /// Squared gravity-direction errors (degrees²) summed over the samples in motion, and their count.
        public var motionSquaredError: Double
        public var motionSamples: Int
        public var samples: Int
        public var lostSamples: Int
    }

    /// The trial's raw samples with the true inclination of each (degrees), the true mounting
    /// (board → shank axes) and the rest inclination.
    public struct Recording: Sendable {
        public var samples: [InertialSample]
        public var truth: [Double]
        public var mounting: Rotation
        public var restDegrees: Double
        public var lostSamples: Int
        /// What the guided calibration found (its mounting is the one the session uses).
        public var calibration: Calibration
    }

    /// Calibrates the simulated sensor and records the trial's motion through the driver.
    /// - Throws: `MPU6050Error` if the simulated driver fails (it should not).
    public func record() throws -> Recording {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17)
        let errors = SensorErrorModel.datasheet(seed: seed)
        let mounting = randomRotation(&random)
        let calibration = try calibrate(errors: errors, mounting: mounting, random: &random)

        let rest = uniform(-5, 15, &random)
        let movement = KneeExtension(
            restDegrees: rest, peakDegrees: uniform(45, 110, &random),
            peakSpeedDegreesPerSecond: uniform(45, 200, &random), holdSeconds: uniform(0.5, 2.5, &random),
            returnDegrees: rest + uniform(-3, 3, &random), leadInSeconds: uniform(2, 3, &random),
            leadOutSeconds: 4.5)
        let scenario = SimulationScenario(
            motion: MotionModel(movement: .kneeExtension(movement), mounting: mounting, thighMovement: .small),
            errors: errors, seed: seed)
        let recorded = try record(scenario, seconds: movement.durationSeconds, random: &random)
        return Recording(samples: recorded.samples, truth: recorded.truth,
                         mounting: mounting, restDegrees: rest, lostSamples: recorded.lost,
                         calibration: calibration)
    }

    /// Runs the trial through a ``MeasurementSession``.
    /// - Throws: `MPU6050Error` if the simulated driver fails (it should not).
    public func run() throws -> Outcome {
        let recorded = try record()
        let mounting = recorded.mounting, rest = recorded.restDegrees
        var session = MeasurementSession(calibration: recorded.calibration)
        var squaredError = 0.0, motionSamples = 0
        let toBoard = mounting.transposed
        for (sample, truth) in zip(recorded.samples, recorded.truth) where !session.isFinished {
            session.update(sample)
            guard abs(truth - rest) > 1 else { continue }
            let theta = truth * Double.pi / 180
            let up = toBoard * SIMD3(sin(theta), 0, cos(theta))
            let error = session.filter.gravity.angle(to: Vector3(up.x, up.y, up.z)) * 180 / Double.pi
            squaredError += error * error
            motionSamples += 1
        }
        session.stop()
        let truths = recorded.truth.filter { !$0.isNaN }
        let trueRange = (truths.max() ?? 0) - (truths.min() ?? 0)
        var endReason: MeasurementSession.EndReason?
        if case .finished(let reason) = session.phase { endReason = reason }
        return Outcome(
            trueRange: trueRange, result: session.result(), endReason: endReason,
            motionSquaredError: squaredError, motionSamples: motionSamples,
            samples: recorded.samples.count, lostSamples: recorded.lostSamples)
    }

    /// The guided calibration over the simulated procedure, with the die at a steady 25 °C (the
    /// measurement then runs warmer, leaving the residual offsets of real use), read with this
    /// trial's host timing.
    private func calibrate(errors: SensorErrorModel, mounting: Rotation, random: inout SplitMix64) throws -> Calibration {
        var cool = errors
        cool.temperature = .constant(25)
        let scenario = SimulationScenario(
            motion: MotionModel(movement: .calibration(.guided(seed: random.next())), mounting: mounting),
            errors: cool, seed: random.next())
        var procedure = GuidedCalibration()
        for sample in try record(scenario, seconds: scenario.motion.durationSeconds, random: &random).samples
        where procedure.step != .finished {
            try procedure.update(sample)
        }
        guard var calibration = procedure.calibration, procedure.step == .finished else {
            throw CalibrationError.stepTimedOut(step: "\(procedure.step)", seconds: scenario.motion.durationSeconds)
        }
        if !calibratesGyroScale { calibration.gyroScale = Vector3(1, 1, 1) }
        return calibration
    }

    private struct Recorded {
        var samples: [InertialSample] = []
        var truth: [Double] = []
        var lost = 0
    }

    /// Reads the scenario through the driver on a manual clock with this trial's host timing.
    private func record(_ scenario: SimulationScenario, seconds: Double, random: inout SplitMix64) throws -> Recorded {
        let clock = ManualClock()
        let simulator = SimulatedMPU6050(scenario: scenario, clock: clock)
        let sensor = try MPU6050(bus: simulator, address: scenario.address, clock: clock)
        try sensor.configure(.standard)
        let total = Int((seconds * Double(MPU6050Configuration.standard.sampleRateHz)).rounded())
        var recorded = Recorded()
        recorded.samples.reserveCapacity(total)
        var covered = 0
        while covered < total {
            switch load {
            case .idle:
                clock.sleep(seconds: 0.05)
            case .loaded:
                let stalled = random.nextUnit() < 0.1
                clock.sleep(seconds: stalled ? uniform(0.2, 0.4, &random) : uniform(0.005, 0.1, &random))
            }
            let batch = try sensor.readSamples()
            if let gap = batch.gap {
                recorded.lost += gap.count
                covered += gap.count
            }
            for sample in batch.samples where sample.index < total {
                recorded.samples.append(InertialSample(sample))
                recorded.truth.append(simulator.truthInclinationDegrees(forSampleIndex: sample.index) ?? .nan)
            }
            covered += batch.samples.count
        }
        return recorded
    }
}

private func uniform(_ low: Double, _ high: Double, _ random: inout SplitMix64) -> Double {
    low + (high - low) * random.nextUnit()
}

/// A rotation drawn uniformly (a normalised 4-D Gaussian is a uniform unit quaternion).
private func randomRotation(_ random: inout SplitMix64) -> Rotation {
    let w = random.nextGaussian()
    let axis = SIMD3(random.nextGaussian(), random.nextGaussian(), random.nextGaussian())
    let sine = (axis * axis).sum().squareRoot()
    return Rotation(axis: axis, angleDegrees: 2 * atan2(sine, w) * 180 / Double.pi)
}
