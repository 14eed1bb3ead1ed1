import Foundation
import Sensor
import TestSupport
import XCTest

/// The driver's FIFO path through the real `/dev/i2c-N`, against mpu6050-sim: a sensor that
/// samples into its FIFO on a kernel timer, overflows as the datasheet says, and measures a
/// motion profile. Then `romdev doctor` and `romdev measure` on it, the command line's whole path
/// from the bus to the stored result.
final class MPU6050FIFOKernelTests: XCTestCase {
    override func setUpWithError() throws {
        try KernelGuest.require()
    }

    /// A profile whose rate about x counts up 0, 1, … 199 °/s and round again: consecutive samples
    /// differ by exactly one step, so a lost, repeated or torn record shows.
    private static func countingProfile(samples: Int) -> [MPU6050Simulator.Record] {
        (0..<samples).map { index in
            MPU6050Simulator.Record(
                accelerationG: SIMD3(0, 0, 1), angularRateDPS: SIMD3(Double(index % 200), 0, 0))
        }
    }

    /// Checks that within each run of samples with no gap between them the count goes up by one
    /// per index; returns how many consecutive pairs were checked.
    @discardableResult
    private func expectCounting(_ batches: [SampleBatch], file: StaticString = #filePath, line: UInt = #line) -> Int {
        var previous: IMUSample?
        var checked = 0
        for batch in batches {
            if batch.gap != nil { previous = nil }
            for sample in batch.samples {
                if let previous {
                    XCTAssertEqual(sample.index, previous.index + 1, file: file, line: line)
                    let step = (sample.angularRateDPS.x.rounded() - previous.angularRateDPS.x.rounded() + 200)
                        .truncatingRemainder(dividingBy: 200)
                    XCTAssertEqual(
                        step, 1, "index \(sample.index): \(sample.angularRateDPS.x) after \(previous.angularRateDPS.x)",
                        file: file, line: line)
                    checked += 1
                }
                previous = sample
            }
        }
        return checked
    }

    func testFIFODeliversEverySampleOnceInOrder() throws {
        try MPU6050Simulator.play(Self.countingProfile(samples: 4000))
        let clock = SystemClock()
        let sensor = try MPU6050(bus: MPU6050Simulator.openBus(), clock: clock)
        try sensor.configure(.standard)
        var batches: [SampleBatch] = []
        var delivered = 0
        while delivered < 600 {
            clock.sleep(seconds: 0.05)
            let batch = try sensor.readSamples()
            delivered += batch.samples.count
            batches.append(batch)
        }
        XCTAssertEqual(batches.flatMap(\.samples).first?.index, 0)
        XCTAssertGreaterThan(expectCounting(batches), 500)
        // The acceleration and temperature come through the ranges and the temperature formula.
        let sample = try XCTUnwrap(batches.last?.samples.last)
        XCTAssertEqual(sample.accelerationG.z, 1, accuracy: 1.0 / 8192)
        XCTAssertEqual(sample.temperatureCelsius, 25, accuracy: 0.01)
    }

    func testAnOverflowIsAGapAndTheStreamGoesOn() throws {
        try MPU6050Simulator.play(Self.countingProfile(samples: 4000))
        let clock = SystemClock()
        let sensor = try MPU6050(bus: MPU6050Simulator.openBus(), clock: clock)
        try sensor.configure(.standard)
        clock.sleep(seconds: 0.05)
        var batches = [try sensor.readSamples()]
        // 1024 bytes hold 85 records, 0.43 s at 200 Hz: a second without reading overflows.
        clock.sleep(seconds: 1)
        let overflowed = try sensor.readSamples()
        let gap = try XCTUnwrap(overflowed.gap, "no gap after a second without reading")
        XCTAssertGreaterThan(gap.count, 100)
        XCTAssertEqual(gap.startIndex, (batches[0].samples.last?.index ?? -1) + 1)
        batches.append(overflowed)
        for _ in 0..<10 {
            clock.sleep(seconds: 0.05)
            batches.append(try sensor.readSamples())
        }
        let after = batches.dropFirst().flatMap(\.samples)
        XCTAssertEqual(after.first?.index, gap.startIndex + gap.count)
        XCTAssertGreaterThan(expectCounting(Array(batches.dropFirst())), 50)
    }

    func testDoctorPassesEveryCheck() throws {
        try MPU6050Simulator.play([])
        let path = try MPU6050Simulator.devicePath()
        let run = try RomdevDoctor.run(["--bus", path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.report.passed)
        // Every check of the shank's sensor passes; the thigh's is not configured.
        XCTAssertEqual(run.report.checks.map(\.status), Array(repeating: "pass", count: 7) + ["skip"])
        XCTAssertEqual(run.report.checks.last?.sensor, "thigh")
    }

    /// A seated knee extension from 5° to 70° played by the kernel's sensor, measured by
    /// `romdev measure` on the bus and stored: the whole path of a live measurement.
    func testMeasureOnTheBusRecordsTheExtensionPlayed() throws {
        let seatedExtension = KneeExtension(restDegrees: 5, peakDegrees: 70, leadInSeconds: 4, leadOutSeconds: 4)
        let motion = MotionModel(movement: .kneeExtension(seatedExtension))
        let rate = Double(MPU6050Configuration.standard.sampleRateHz)
        try MPU6050Simulator.play(
            (0..<Int(motion.durationSeconds * rate)).map { index in
                let state = motion.state(atSeconds: Double(index) / rate)
                return MPU6050Simulator.Record(
                    accelerationG: state.specificForceG, angularRateDPS: state.angularRateDPS)
            })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "romdev-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ProcessInfo.processInfo.environment.merging(
            ["ROMDEV_STORE": directory.appendingPathComponent("care.sqlite").path]) { $1 }
        for arguments in [["init", "--tz", "UTC"], ["onboard", "--consent-by", "Ann Example"]] {
            let run = try RomdevProcess.run(arguments, environment: environment)
            XCTAssertEqual(run.status, 0, "romdev \(arguments.joined(separator: " ")): \(run.stderr)")
        }
        let measured = try RomdevProcess.run(
            ["measure", "--bus", MPU6050Simulator.devicePath(), "--json"], environment: environment)
        XCTAssertEqual(measured.status, 0, measured.stderr)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(measured.stdout.utf8)) as? [String: Any])
        let range = try XCTUnwrap(result["range"] as? Double, "\(result)")
        // An ideal sensor on the shin, measured without a calibration.
        XCTAssertEqual(range, 65, accuracy: 1)
        XCTAssertEqual(result["ended"] as? String, "returned")
        XCTAssertEqual((result["flags"] as? [String]) ?? ["missing"], [])
    }
}
