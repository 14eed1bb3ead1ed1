import Foundation
import LinuxSystem
import Testing

@testable import Sensor

/// Every injected fault ends in a typed error (or, when transient, in a clean continuation),
/// never a crash or a hang.
@Suite struct FaultInjectionTests {
    private func busError(_ error: any Error) -> I2CError? {
        guard case .bus(let bus) = error as? MPU6050Error else { return nil }
        return bus
    }

    @Test func nackDuringBringUp() throws {
        #expect {
            _ = try SimulationScenario.still().record(seconds: 1, faults: [.nack(afterSeconds: 0)])
        } throws: { error in
            let bus = busError(error)
            return bus?.errno == .remoteIO && bus?.register == 0x75 && bus?.address == 0x68
                && bus?.devicePath == "simulated-i2c"
        }
    }

    @Test(arguments: [SimulatedFault.Kind.nack, .ioError])
    func transientFaultMidSessionIsTypedAndRecoverable(kind: SimulatedFault.Kind) throws {
        let clock = ManualClock()
        let sim = SimulatedMPU6050(scenario: .still(seed: 5), clock: clock)
        let sensor = try MPU6050(bus: sim, clock: clock)
        try sensor.configure(.standard)
        sim.inject(SimulatedFault(kind: kind, afterSeconds: 1, transfers: 2))
        var indices: [Int] = []
        var errors: [I2CError] = []
        for _ in 0..<60 {
            clock.advance(by: 0.05)
            do {
                indices += try sensor.readSamples().samples.map(\.index)
            } catch {
                errors.append(try #require(busError(error)))
            }
        }
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.errno == (kind == .nack ? .remoteIO : .ioError) })
        #expect(indices == Array(0..<indices.count))
        #expect(indices.count >= 590)
    }

    @Test func deviceGoneEndsTheRecordingWithATypedError() {
        #expect {
            _ = try SimulationScenario.kneeExtension().record(seconds: 10, faults: [.deviceGone(afterSeconds: 2)])
        } throws: { error in
            busError(error)?.errno == .remoteIO
        }
    }

    @Test func stuckFIFOIsReportedAsAStall() {
        #expect {
            _ = try SimulationScenario.still().record(seconds: 10, faults: [.stuckFIFO(afterSeconds: 1)])
        } throws: { error in
            guard case .fifoStalled = error as? MPU6050Error else { return false }
            return true
        }
    }

    @Test func readingLessOftenThanTheFIFOLastsIsAnOverrun() {
        #expect {
            _ = try SimulationScenario.still().record(seconds: 10, pollIntervalSeconds: 0.6)
        } throws: { error in
            guard case .fifoOverrun(_, _, _, let fifoSeconds) = error as? MPU6050Error else { return false }
            return abs(fifoSeconds - 0.425) < 1e-9
        }
    }

    @Test func slowPollingOverflowsButNeverRepeatsOrMisplacesSamples() throws {
        var scenario = SimulationScenario.kneeExtension(seed: 8)
        scenario.errors = .ideal
        // 0.3–0.6 s between reads; the FIFO holds 0.43 s at 200 Hz.
        let recording = try scenario.record(seconds: 6, pollIntervalSeconds: 0.3, pollJitterSeconds: 0.3)
        #expect(!recording.gaps.isEmpty)
        #expect(recording.samples.count > 300)
        #expect(recording.samples.count + recording.gaps.map(\.count).reduce(0, +) >= 1190)
        var expected = 0
        var gaps = recording.gaps.makeIterator()
        var nextGap = gaps.next()
        for sample in recording.samples {
            while let gap = nextGap, gap.startIndex == expected {
                expected += gap.count
                nextGap = gaps.next()
            }
            #expect(sample.index == expected)
            expected += 1
        }
        // Indices after a gap come from the host clock: the truth at each index still matches
        // what the sensor measured to within a sample's worth of motion.
        for (sample, truth) in zip(recording.samples, recording.truthInclinationDegrees) {
            let a = sample.accelerationG
            let measured = atan2(a.x, a.z) * 180 / .pi
            #expect(Swift.abs(measured - truth) < 3)
        }
    }
}
