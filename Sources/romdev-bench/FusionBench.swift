import Fusion
import FusionAccuracy
import Sampling
import Sensor

#if canImport(Glibc)
import Glibc
#endif

/// Fusion figures: ROM accuracy over seeded simulated sessions (idle and loaded host) and the cost of
/// fusion per sample.
enum FusionBench {
    /// Sessions per row: 30 rows of 100 take about a minute (release, 2 cores).
    static let trials = 100
    /// Runs the fusion figures alone.
    static let onlyOption = "--fusion-only"

    static func run() {
        print("== fusion: knee ROM accuracy, \(trials) simulated sessions per row (seeds 1…\(trials))")
        print("   (each error source alone at datasheet magnitude over datasheet noise, then all together; random")
        print("    mounting, rest −5…15°, peak 45…110°, 45…200 °/s, hold 0.5…2.5 s; driver FIFO at 200 Hz. 'cal.':")
        print("    calibrated at 25 °C by the procedure of 'romdev calibrate' over the simulated calibration")
        print("    scenario, measured 1…15 °C warmer; 'raw': no calibration, the session finds the mounting)")
        print(
            "   source                    cal.  range |err| p50   p95    max  gravity RMSE  returned timed-out flagged refused lost  clean max"
        )
        for source in ErrorSource.allCases {
            for calibrated in [true, false] {
                row(source, calibrated: calibrated)
            }
        }
        print("   targets: calibrated p95 ≤ 0.3°, max ≤ 0.5°; typical part uncalibrated p95 ≤ 1.5°, max ≤ 2.0°;")
        print("            thigh motion: every session ends, and is flagged ('clean max': the largest error of a")
        print("            result stored without a flag)")
        calibrationOnAStallingHost()
        knee()
        thighSensor()
        cost()
    }

    /// `romdev-bench --thigh`: only the rows of the thigh sensor and the costs.
    static let thighOption = "--thigh"

    /// The knee angles with the thigh sensor: both protocols, calibrated and not, under every error
    /// source (the thigh's sway and drift included); then one sensor with a still thigh for
    /// comparison.
    static func thighSensor() {
        print("== fusion: knee angles with the thigh sensor, \(trials) simulated sessions per row (seeds 1…\(trials))")
        print("   (every error source on both sensors, each its own part and sample clock, FIFOs drained together and")
        print("    paired; the thigh swaying ±2…3° and drifting 1…3°; boards strapped alike where the wiring guide")
        print("    puts them, turned 10° (1σ, at most 30°) off it; 'cal.': both sensors through the guided")
        print("    calibration; truth: the knee's own angle; then uncalibrated with noise only, and a typical part")
        print("    on both sensors, idle host; then every error again, the host stalling past the FIFOs now and")
        print("    then; last every error with the boards strapped at any rotation; the errors over the sessions")
        print("    measured, those whose calibration was refused counted apart)")
        print(
            "   protocol   cal. source                 |err| p50 / p95 / max: knee_extension      knee_flexion"
                + "         knee_arc          returned flagged refused")
        let guided: [(ErrorSource, MeasurementProtocol, Bool)] = [
            (.all, .extension, true), (.all, .extension, false), (.all, .arc, true), (.all, .arc, false),
            (.noise, .extension, false), (.noise, .arc, false), (.typicalPart, .extension, false),
            (.typicalPart, .arc, false), (.fifoOverflows, .extension, true), (.fifoOverflows, .extension, false),
            (.fifoOverflows, .arc, true), (.fifoOverflows, .arc, false),
        ]
        let rows =
            guided.map { ($0.0, $0.1, $0.2, Strapping.asGuided) } + [
                (ErrorSource.all, MeasurementProtocol.extension, true, Strapping.anyRotation),
                (.all, .extension, false, .anyRotation),
            ]
        for (source, measurementProtocol, calibrated, strapping) in rows {
            // The thigh sways in every row here, so the overflows' row has every error.
            var name = source == .fifoOverflows ? "all, FIFO overflows" : source.rawValue
            if strapping == .anyRotation { name = "all, at any rotation" }
            let label = "\(pad(measurementProtocol.rawValue, 10)) \(calibrated ? "cal." : "raw ") \(pad(name, 22))"
            kneeRow(label, extraColumn: false) {
                try AccuracyTrial(
                    seed: $0, source: source, calibrated: calibrated, measurementProtocol: measurementProtocol,
                    thighSensor: true, strapping: strapping
                ).run()
            }
        }
        print("   one sensor, still thigh (truth 90° − the inclination), with the range's |err| p50 / p95 / max:")
        kneeRow("arc        cal. \(pad(ErrorSource.allButThigh.rawValue, 22))", extraColumn: true) {
            try AccuracyTrial(seed: $0, source: .allButThigh, calibrated: true, measurementProtocol: .arc).run()
        }
        print("   targets: with the thigh sensor, calibrated p95 ≤ 1.0°, max ≤ 1.5°; uncalibrated p95 ≤ 2.0°;")
        print("            one sensor with a still thigh: the knee_arc's error that of the range")
    }

    /// One row of knee-angle errors over seeds 1…``trials``; `extraColumn` adds the range's.
    private static func kneeRow(
        _ label: String, extraColumn: Bool, _ trial: (UInt64) throws -> AccuracyTrial.Outcome
    ) {
        do {
            let outcomes = try outcomes(trial)
            let refused = outcomes.filter { $0.calibrationRefusal != nil }.count
            var s = AccuracySummary(outcomes.filter { $0.calibrationRefusal == nil })
            s.calibrationRefused = refused
            let range =
                extraColumn ? "  range \(f(s.rangeErrorMedian)) \(f(s.rangeError95)) \(f(s.rangeErrorMaximum))" : ""
            print(
                "   \(label)    \(triple(s.kneeExtensionError))  \(triple(s.kneeFlexionError))  "
                    + "\(triple(s.kneeArcError))  \(pad("\(s.returned)/\(s.trials)", 8)) \(pad("\(s.flagged)", 7)) "
                    + "\(s.calibrationRefused)\(range)")
        } catch {
            print("   \(label): simulation failed: \(error)")
        }
    }

    /// The clinical knee angles on the arc protocol: extension, return, the foot under the chair
    /// (10…45° past vertical), return; the thigh still, so that 90° − the true inclination is the
    /// true knee angle.
    private static func knee() {
        print("== fusion: knee angles, arc protocol, \(trials) simulated sessions per row (seeds 1…\(trials))")
        print("   (as above, the thigh still; the foot then slides 10…45° past vertical; truth 90° − true inclination;")
        print("    'shin': where the shin rested when the calibration took it as hanging vertical)")
        print(
            "   source                    cal.  |err| p50 / p95 / max:  knee_extension       knee_flexion         knee_arc"
                + "          returned flagged")
        let rows: [(ErrorSource, Bool, Double)] = [
            (.noise, true, 3), (.allButThigh, true, 3), (.allButThigh, true, 0), (.allButThigh, false, 3),
        ]
        for (source, calibrated, shin) in rows {
            do {
                let s = AccuracySummary(
                    try outcomes { seed in
                        var trial = AccuracyTrial(
                            seed: seed, source: source, calibrated: calibrated, measurementProtocol: .arc)
                        trial.calibrationShinDegrees = shin
                        return try trial.run()
                    })
                let pose = calibrated ? "shin \(shin == 0 ? "plumb" : "\(Int(shin))° fwd")" : ""
                print(
                    "   \(pad(source.rawValue, 25)) \(calibrated ? "cal." : "raw ") \(pad(pose, 12))            "
                        + "\(triple(s.kneeExtensionError))  \(triple(s.kneeFlexionError))  \(triple(s.kneeArcError))  "
                        + "\(pad("\(s.returned)/\(s.trials)", 8)) \(s.flagged)")
            } catch {
                print("   \(source.rawValue): simulation failed: \(error)")
            }
        }
    }

    private static func row(_ source: ErrorSource, calibrated: Bool) {
        do {
            let s = AccuracySummary(
                try outcomes { try AccuracyTrial(seed: $0, source: source, calibrated: calibrated).run() })
            print(
                "   \(pad(source.rawValue, 25)) \(calibrated ? "cal." : "raw ")  \(f(s.rangeErrorMedian))° \(f(s.rangeError95))° "
                    + "\(f(s.rangeErrorMaximum))°  \(f(s.gravityRMSE))°        \(pad("\(s.returned)/\(s.trials)", 8)) "
                    + "\(pad("\(s.timedOut)", 9)) \(pad("\(s.flagged)", 7)) \(pad("\(s.calibrationRefused)", 7)) "
                    + "\(pad("\(s.lostSamples)", 5)) \(s.unflaggedErrorMaximum.map { "\(f($0))°" } ?? "    –")"
            )
        } catch {
            print("   \(source.rawValue): simulation failed: \(error)")
        }
    }

    /// The overflows' row calibrated on its own host, which stalls past the FIFO now and then
    /// (the row itself calibrates on a host that keeps up): how many guided calibrations ask for
    /// tips again, how many are accepted, and how well their sessions measure.
    static func calibrationOnAStallingHost() {
        print(
            "== fusion: the guided calibration on the overflows' host (stalls of 0.5…0.8 s, about one in 5 s), \(trials)"
        )
        print("   calibrations, each followed by its session as in the row; a person who turns up the faces the")
        print("   procedure asks for again when a tip lost samples (at most four)")
        do {
            let outcomes = try outcomes { seed in
                var trial = AccuracyTrial(seed: seed, source: .fifoOverflows)
                trial.calibrationLoad = .overflowing
                return try trial.run()
            }
            let accepted = outcomes.filter { $0.calibrationRefusal == nil }
            let retaken = accepted.filter { $0.calibrationRetakes > 0 }
            let refused = outcomes.count - accepted.count
            let lost = outcomes.filter {
                if case .samplesLost = $0.calibrationRefusal { true } else { false }
            }.count
            let faces = retaken.reduce(0) { $0 + $1.calibrationRetakes }
            print(
                "   accepted \(accepted.count) (\(retaken.count) after tips made again, \(faces) faces in all), refused \(refused) "
                    + "(\(lost) saying samples were lost in more tips than can be made again)")
            print(
                "   the accepted sessions' range |err| p50 / p95 / max: \(triple(ErrorPercentiles(accepted.map(\.rangeError))))"
            )
        } catch {
            print("   simulation failed: \(error)")
        }
    }

    /// The outcomes of `trial` over seeds 1…``trials``; a failure carries its seed, so that it can be
    /// replayed.
    private static func outcomes(
        _ trial: (UInt64) throws -> AccuracyTrial.Outcome
    ) throws -> [AccuracyTrial.Outcome] {
        try (1...UInt64(trials)).map { seed in
            do {
                return try trial(seed)
            } catch {
                throw TrialFailure(seed: seed, error: error)
            }
        }
    }

    /// An error's median, 95th percentile and maximum, as a row prints them.
    private static func triple(_ p: ErrorPercentiles) -> String { "\(f(p.median)) \(f(p.p95)) \(f(p.maximum))" }

    /// A trial that could not run, with its seed so that it can be replayed.
    struct TrialFailure: Error, CustomStringConvertible {
        var seed: UInt64
        var error: any Error
        var description: String { "seed \(seed): \(error)" }
    }

    /// Nanoseconds per sample of the filter alone, of the plain complementary filter and of the whole
    /// session, over a long recording replayed many times (release build).
    ///
    /// Each figure is the thread's CPU time, not the wall clock: on a shared machine the wall clock
    /// also counts the time other processes hold the core. The three run in turn in each of
    /// `rounds` rounds, so that a busy spell weighs on all of them; the median round is printed with
    /// the fastest and slowest, so that the spread shows how far one figure can be trusted.
    static func cost() {
        guard let (samples, thighSamples) = try? longRecording() else {
            print("   cost: simulation failed")
            return
        }
        let repetitions = 20, rounds = 15
        var sink = 0.0
        let count = Double(samples.count * repetitions)
        func perSample(_ body: () -> Void) -> Double {
            let start = threadCPUNanoseconds()
            body()
            return (threadCPUNanoseconds() - start) / count
        }
        var filterTimes: [Double] = [], complementaryTimes: [Double] = [], sessionTimes: [Double] = []
        var twoSensorTimes: [Double] = []
        // The whole session, without or with the thigh sensor's samples.
        func sessions(thigh: [InertialSample]?) {
            for _ in 0..<repetitions {
                var parameters = SessionParameters()
                parameters.timeout = .infinity
                var session = MeasurementSession(parameters: parameters)
                for (index, sample) in samples.enumerated() { session.update(sample, thigh: thigh?[index]) }
                session.stop()
                sink += session.result()?.range ?? 0
            }
        }
        for _ in 0..<rounds {
            filterTimes.append(
                perSample {
                    for _ in 0..<repetitions {
                        var filter = OrientationFilter()
                        for sample in samples { filter.update(sample) }
                        sink += filter.gravity.x
                    }
                })
            complementaryTimes.append(
                perSample {
                    for _ in 0..<repetitions {
                        var filter = PlainComplementaryFilter()
                        for sample in samples { filter.update(sample) }
                        sink += filter.gravity.x
                    }
                })
            sessionTimes.append(perSample { sessions(thigh: nil) })
            twoSensorTimes.append(perSample { sessions(thigh: thighSamples) })
        }
        func spread(_ times: [Double]) -> String {
            let sorted = times.sorted()
            return "\(f(sorted[sorted.count / 2])) ns  (\(f(sorted[0]))…\(f(sorted[sorted.count - 1])))"
        }
        print(
            "== fusion: cost per sample, thread CPU time (\(samples.count) samples × \(repetitions), "
                + "median of \(rounds) rounds (fastest…slowest))")
        print("   OrientationFilter.update   \(spread(filterTimes))   (target ≤ 100 ns)")
        print(
            "   plain complementary filter \(spread(complementaryTimes))   (reference: gyro plus a fixed pull to the accelerometer, τ = 2 s)"
        )
        print("   MeasurementSession.update  \(spread(sessionTimes))   (incl. result at the end)")
        print("   … with the thigh sensor    \(spread(twoSensorTimes))   (both filters, incl. result at the end)")
        // At 200 Hz a second holds 200 samples: the share of a core is the time per sample times 200.
        func share(_ times: [Double]) -> String {
            let percent = times.sorted()[times.count / 2] * 200 / 1e9 * 100
            return "\((percent * 10_000).rounded() / 10_000) %"
        }
        print(
            "   session's share of a core at 200 Hz: one sensor \(share(sessionTimes)), with the thigh sensor "
                + "\(share(twoSensorTimes))   (target < 2 %)")
        if sink.isNaN { print("") }
    }

    /// CPU time of the calling thread, nanoseconds.
    private static func threadCPUNanoseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }

    /// A 60 s simulated session at 200 Hz (five repetitions of the extension), read by the shank's
    /// sensor and by the thigh's (the same sample clock: the samples pair by index).
    private static func longRecording() throws -> ([InertialSample], [InertialSample]) {
        let movement = KneeExtension(peakDegrees: 85, repetitions: 5)
        let motion = MotionModel(movement: .kneeExtension(movement), thighMovement: .small)
        let shank = try SimulationScenario(motion: motion, errors: .noiseOnly, seed: 1).record(seconds: 60)
        let thigh = try SimulationScenario(motion: motion.onThigh(), errors: .noiseOnly, seed: 2).record(seconds: 60)
        return (shank.samples.map(InertialSample.init), thigh.samples.map(InertialSample.init))
    }

    private static func f(_ value: Double) -> String {
        guard value.isFinite else { return "  inf" }
        let rounded = (value * 100).rounded() / 100
        return pad(String(rounded), 5, left: true)
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? padding + text : text + padding
    }
}

/// The textbook complementary filter, as the reference the orientation filter's cost is compared
/// with: the gravity direction turned by the gyro, then pulled toward the accelerometer with a fixed
/// time constant. No bias estimation, no rest detection.
struct PlainComplementaryFilter {
    var gravity = Vector3.unitZ
    private var previousTime: Double?
    private let timeConstant = 2.0

    mutating func update(_ sample: InertialSample) {
        guard let previous = previousTime else {
            previousTime = sample.time
            gravity = sample.acceleration.normalized ?? .unitZ
            return
        }
        let interval = sample.time - previous
        previousTime = sample.time
        let turned = gravity.rotated(by: sample.rotationRate * (-interval * Double.pi / 180))
        let k = interval / (timeConstant + interval)
        gravity = (turned + ((sample.acceleration.normalized ?? turned) - turned) * k).normalized ?? turned
    }
}
