import Foundation
import Testing
@testable import Sensor

@Suite struct SimulatedSessionTests {
    @Test func stillSensorReadsOneGAndNoRotation() throws {
        var scenario = SimulationScenario.still(seed: 1)
        scenario.errors = .noiseOnly
        let recording = try scenario.record(seconds: 2)
        #expect(recording.samples.count == 400)
        #expect(recording.gaps.isEmpty)
        #expect(recording.samples.map(\.index) == Array(0..<400))
        for sample in recording.samples {
            #expect(abs(sample.accelerationG.z - 1) < 0.02)
            #expect(abs(sample.angularRateDPS.y) < 0.3)
        }
        #expect(recording.truthInclinationDegrees.allSatisfy { $0 == 0 })
    }

    @Test func kneeExtensionReachesItsPeak() throws {
        var scenario = SimulationScenario.kneeExtension(seed: 2, peakDegrees: 80)
        scenario.errors = .ideal
        let recording = try scenario.record()
        let peak = recording.truthInclinationDegrees.max() ?? 0
        #expect(abs(peak - 80) < 1e-6)
        // At the held peak the accelerometer sees gravity tilted by the inclination.
        let held = try #require(recording.truthInclinationDegrees.firstIndex(where: { $0 == 80 }))
        let a = recording.samples[held + 10].accelerationG
        let angle = atan2(a.x, a.z) * 180 / .pi
        #expect(abs(angle - 80) < 0.5)
    }

    @Test func sameSeedSameSamples() throws {
        let a = try SimulationScenario.kneeExtension(seed: 42).record(seconds: 3)
        let b = try SimulationScenario.kneeExtension(seed: 42).record(seconds: 3)
        let c = try SimulationScenario.kneeExtension(seed: 43).record(seconds: 3)
        #expect(a.samples == b.samples)
        #expect(a.samples != c.samples)
    }
}

@Suite struct SimulatedJitterTests {
    @Test func jitteryHostStillGetsEverySampleOnce() throws {
        var scenario = SimulationScenario.kneeExtension(seed: 11)
        scenario.errors = .noiseOnly
        let recording = try scenario.record(seconds: 5, pollJitterSeconds: 0.2)
        #expect(recording.gaps.isEmpty)
        #expect(recording.samples.map(\.index) == Array(0..<1000))
    }

    @Test func stallsLongerThanTheFIFOLeaveGaps() throws {
        let recording = try SimulationScenario.still(seed: 11).record(seconds: 5, pollJitterSeconds: 0.9)
        #expect(!recording.gaps.isEmpty)
        let covered = recording.samples.count + recording.gaps.map(\.count).reduce(0, +)
        #expect(abs(covered - 1000) <= recording.gaps.count)
    }
}

@Suite struct SimulatedTimingIndependenceTests {
    @Test func samplesDoNotDependOnHostTiming() throws {
        let scenario = SimulationScenario.kneeExtension(seed: 21)
        let steady = try scenario.record(seconds: 4, pollIntervalSeconds: 0.05)
        let jittery = try scenario.record(seconds: 4, pollIntervalSeconds: 0.03, pollJitterSeconds: 0.3)
        #expect(steady.samples.map(\.accelerationG) == jittery.samples.map(\.accelerationG))
        #expect(steady.samples.map(\.angularRateDPS) == jittery.samples.map(\.angularRateDPS))
        #expect(steady.truthInclinationDegrees == jittery.truthInclinationDegrees)
    }
}

@Suite struct RegisterReadoutTests {
    @Test func pollingTheRegistersDeliversEachSampleOnce() throws {
        var scenario = SimulationScenario.still(seed: 4)
        scenario.errors = .noiseOnly
        let recording = try scenario.record(
            configuration: MPU6050Configuration.standard.with(readout: .registers), seconds: 2,
            pollIntervalSeconds: 0.0025)
        #expect(recording.samples.map(\.index) == Array(0..<400))
        #expect(recording.samples.allSatisfy { abs($0.accelerationG.z - 1) < 0.02 })
    }
}
