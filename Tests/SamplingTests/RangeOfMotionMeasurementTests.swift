import Dispatch
import Fusion
import Sensor
import Synchronization
import Testing

@testable import Sampling

/// The guided measurement on the simulator, paced by a manual clock (faster than real time).
@Suite struct RangeOfMotionMeasurementTests {
    let clock = ManualClock()

    private func measurement(
        _ scenario: SimulationScenario, parameters: SessionParameters = SessionParameters(),
        faults: [SimulatedFault] = [], onProgress: @escaping @Sendable (MeasurementSession.Phase) -> Void = { _ in }
    ) throws -> RangeOfMotionMeasurement {
        let simulated = try SimulatedSensor(scenario, clock: clock, faults: faults)
        return RangeOfMotionMeasurement(
            sensor: simulated.sensor, calibration: nil, parameters: parameters, pacing: .sleeping(clock),
            onProgress: onProgress)
    }

    @Test func measuresAKneeExtensionAndReportsEachPhaseOnce() throws {
        let phases = Mutex<[MeasurementSession.Phase]>([])
        let measurement = try measurement(.kneeExtension(seed: 2, peakDegrees: 70)) { phase in
            phases.withLock { $0.append(phase) }
        }
        let outcome = try measurement.run()
        #expect(phases.withLock { $0 } == [.settling, .ready, .moving, .returning, .finished(.returned)])
        #expect(outcome.endReason == .returned)
        // The start pose is 5°, the peak 70°: a 65° excursion (uncalibrated, so a few degrees).
        #expect(abs(outcome.result.range - 65) < 4)
        #expect(outcome.sampling.lostSamples == 0)
        #expect(outcome.samples > 0 && outcome.samples <= outcome.sampling.samples)
    }

    @Test func endsAtTheTimeOutWhenTheLegNeverMoves() throws {
        var parameters = SessionParameters()
        parameters.timeout = 4
        let outcome = try measurement(.still(seed: 4), parameters: parameters).run()
        #expect(outcome.endReason == .timedOut)
        #expect(outcome.result.range < 1)
        #expect(abs(outcome.seconds - 4) < 0.01)
    }

    @Test func stopEndsWithTheResultSoFar() throws {
        let box = Mutex<RangeOfMotionMeasurement?>(nil)
        let measurement = try measurement(.kneeExtension(seed: 2)) { phase in
            if phase == .moving { box.withLock { $0?.stop() } }
        }
        box.withLock { $0 = measurement }
        let outcome = try measurement.run()
        #expect(outcome.endReason == .stopped)
        #expect(outcome.result.range < 60)
    }

    @Test func abortEndsWithoutAResult() throws {
        let box = Mutex<RangeOfMotionMeasurement?>(nil)
        let measurement = try measurement(.kneeExtension(seed: 2)) { phase in
            if phase == .ready { box.withLock { $0?.abort() } }
        }
        box.withLock { $0 = measurement }
        #expect(throws: MeasurementError.aborted) { try measurement.run() }
    }

    @Test func aSensorFailureEndsTheSessionWithAnError() throws {
        let measurement = try measurement(.kneeExtension(seed: 2), faults: [.deviceGone(afterSeconds: 3)])
        do {
            _ = try measurement.run()
            Issue.record("the measurement succeeded on a sensor that went away")
        } catch {
            guard case .sensor(.bus(let bus), let samples) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(bus.errno == .remoteIO)
            #expect(samples > 0)
        }
    }

    @Test func startReportsTheResultOnItsCompletion() throws {
        let measurement = try measurement(.kneeExtension(seed: 8))
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<RangeOfMotionMeasurement.Report, MeasurementError>?>(nil)
        measurement.start { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        let result = try #require(outcome.withLock { $0 })
        #expect(try result.get().endReason == .returned)
    }
}

/// The procedure hands the thigh's aligned sample to its session.
struct RangeOfMotionProcedureTests {
    @Test func aThighSampleBesideEachShankSampleGivesTheTwoSensorResult() throws {
        // The thigh rises 4° during the extension and stays: the knee's own angle is what counts.
        let motion = MotionModel(
            movement: .kneeExtension(KneeExtension(peakDegrees: 70)),
            thighMovement: ThighMovement(amplitudeDegrees: 0, periodSeconds: 0, driftDegrees: 4, driftSeconds: 5))
        let shank = try SimulationScenario(motion: motion, errors: .noiseOnly, seed: 1).record()
        let thigh = try SimulationScenario(motion: motion.onThigh(), errors: .noiseOnly, seed: 2).record()
        var procedure = RangeOfMotionProcedure(session: MeasurementSession())
        var shankOnly = RangeOfMotionProcedure(session: MeasurementSession())
        for (shankSample, thighSample) in zip(shank.samples, thigh.samples) where !procedure.isFinished {
            try procedure.take(InertialSample(shankSample), thigh: InertialSample(thighSample))
            if !shankOnly.isFinished { try shankOnly.take(InertialSample(shankSample), thigh: nil) }
        }
        try procedure.stop()
        try shankOnly.stop()
        let both = try procedure.product(sampling: SamplingStatistics()).get().result
        let one = try shankOnly.product(sampling: SamplingStatistics()).get().result
        #expect(both.kneeAngleSource == .thighSensor)
        #expect(one.kneeAngleSource == .seatedAssumption)
        // The knee came back to where it started; the shank alone came back higher, by what the
        // thigh rose after the start pose (3.25° of its 4°).
        #expect(abs(both.finish - both.start) < 0.5)
        #expect(one.finish - one.start > 3)
    }
}
