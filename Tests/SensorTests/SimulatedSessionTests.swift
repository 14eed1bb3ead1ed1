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

    @Test func aFastSampleClockStretchesTheTimeTheDriverSees() throws {
        var scenario = SimulationScenario.kneeExtension(seed: 2, peakDegrees: 80)
        scenario.errors = .ideal
        scenario.errors.sampleClockError = 0.01
        scenario.motion.thighMovement = .none
        let recording = try scenario.record(seconds: 6)
        for (sample, truth) in zip(recording.samples, recording.truthInclinationDegrees) where sample.index % 50 == 0 {
            // Timestamps assume the configured 200 Hz; the samples come 1 % faster.
            #expect(abs(sample.timeSeconds - Double(sample.index) / 200) < 1e-9)
            let trueTime = Double(sample.index + 1) / 200 / 1.01
            #expect(abs(truth - scenario.motion.state(atSeconds: trueTime).inclinationDegrees) < 1e-9)
        }
        // So the gyro integrated over the timestamps turns 1 % more than the leg did.
        let top = try #require(recording.truthInclinationDegrees.firstIndex(of: 80))
        let integrated = -recording.samples[...top].reduce(0) { $0 + $1.angularRateDPS.y / 200 }
        let turned = 80 - recording.truthInclinationDegrees[0]
        #expect(abs(integrated / turned - 1.01) < 0.002)
    }

    @Test func kneeExtensionReachesItsPeak() throws {
        var scenario = SimulationScenario.kneeExtension(seed: 2, peakDegrees: 80)
        scenario.errors = .ideal
        // The scenario's thigh sways a little and turns the shank with it; here only the knee moves.
        scenario.motion.thighMovement = .none
        let recording = try scenario.record()
        let peak = recording.truthInclinationDegrees.max() ?? 0
        #expect(abs(peak - 80) < 1e-6)
        // At the held peak the accelerometer sees gravity tilted by the inclination.
        let held = try #require(recording.truthInclinationDegrees.firstIndex(where: { $0 == 80 }))
        let a = recording.samples[held + 10].accelerationG
        let angle = atan2(a.x, a.z) * 180 / .pi
        #expect(abs(angle - 80) < 0.5)
    }

    @Test func kneeArcExtendsThenFlexesPastVerticalWithTruth() throws {
        var scenario = SimulationScenario.named("knee-arc", seed: 2)!
        scenario.errors = .ideal
        scenario.motion.thighMovement = .none
        let recording = try scenario.record()
        let truth = recording.truthInclinationDegrees
        #expect(abs((truth.max() ?? 0) - 75) < 1e-6)
        #expect(abs((truth.min() ?? 0) + 30) < 1e-6)
        // The extension comes first, and the flexion past vertical is kept, not folded back.
        let top = try #require(truth.firstIndex(of: 75)), bottom = try #require(truth.firstIndex(of: -30))
        #expect(top < bottom)
        #expect(truth.first == 5 && truth.last == 5)
        // Under the chair the shank leans back: the accelerometer sees gravity tilted by −30°.
        let a = recording.samples[bottom + 10].accelerationG
        #expect(abs(atan2(a.x, a.z) * 180 / .pi + 30) < 0.5)
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

@Suite struct PartVariantTests {
    @Test(arguments: [MPU6050Part.mpu6500, .mpu9250, .icm20602, .icm20689])
    func newerPartsRecordWithTheirOwnTemperatureFormula(part: MPU6050Part) throws {
        var scenario = SimulationScenario.still(seed: 6)
        scenario.part = part
        scenario.errors = .noiseOnly
        scenario.errors.temperature = .constant(31.5)
        let recording = try scenario.record(seconds: 1)
        #expect(recording.samples.count == 200)
        #expect(recording.samples.allSatisfy { abs($0.temperatureCelsius - 31.5) < 0.01 })
        #expect(recording.samples.allSatisfy { abs($0.accelerationG.z - 1) < 0.02 })
    }

    @Test func sensorAtTheAlternateAddress() throws {
        var scenario = SimulationScenario.still(seed: 6)
        scenario.address = 0x69
        #expect(try scenario.record(seconds: 0.5).samples.count == 100)
        let clock = ManualClock()
        let sensor = try MPU6050(bus: SimulatedMPU6050(scenario: scenario, clock: clock), clock: clock)
        #expect(throws: MPU6050Error.self) { try sensor.identify() }
    }

    @Test func accelerometerFilterFollowsAccelConfig2OnNewerParts() throws {
        // A fast swing: the accelerometer lags by its own filter's delay (11.8 ms at 41 Hz on the
        // MPU-6500, 4.9 ms at 44 Hz on the MPU-6050), so the readings differ between the parts.
        func samples(_ part: MPU6050Part) throws -> [SIMD3<Double>] {
            var scenario = SimulationScenario.kneeExtension(seed: 1, peakDegrees: 90)
            scenario.part = part
            scenario.errors = .ideal
            return try scenario.record(seconds: 4).samples.map(\.accelerationG)
        }
        #expect(try samples(.mpu6050) != samples(.mpu6500))
    }
}
