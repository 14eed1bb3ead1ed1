import Foundation
import TestSupport
import Testing

/// `romdev doctor` and `romdev record` through the built binary, on the simulated sensor.
@Suite struct SensorCommandTests {
    @Test func doctorPassesOnTheSimulatedSensor() throws {
        let result = try RomdevProcess.run(["doctor", "--simulate"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("  pass  ") }.count == 7)
        #expect(result.stdout.contains("MPU-6050/6000 (WHO_AM_I 0x68)"))
        #expect(lines.last == "All 7 checks passed.")
    }

    @Test func doctorReportsJSON() throws {
        let result = try RomdevProcess.run(["doctor", "--simulate", "--seed", "9", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["passed"] as? Bool == true)
        #expect(report["address"] as? String == "0x68")
        let checks = try #require(report["checks"] as? [[String: Any]])
        #expect(
            checks.map { $0["name"] as? String } == [
                "bus", "adapter", "device", "identity", "configuration", "sampling", "at rest", "device",
            ])
        #expect(checks.map { $0["sensor"] as? String } == [nil, nil] + Array(repeating: "shank", count: 5) + ["thigh"])
        #expect(checks.dropLast().allSatisfy { $0["status"] as? String == "pass" })
        #expect(checks.last?["status"] as? String == "skip")
        #expect((checks.last?["detail"] as? String)?.hasPrefix("not configured") == true)
        #expect(report["thigh_address"] is NSNull)
    }

    @Test func doctorChecksBothSensorsEachByName() throws {
        let result = try RomdevProcess.run(["doctor", "--simulate", "--thigh-address", "0x69"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("address 0x68, thigh sensor 0x69:") })
        #expect(lines.contains("  pass  shank device         0x68 acknowledged"))
        #expect(lines.contains("  pass  thigh device         0x69 acknowledged"))
        for check in ["identity", "configuration", "sampling", "at rest"] {
            #expect(lines.filter { $0.hasPrefix("  pass  thigh \(check)") }.count == 1, "\(check)")
        }
        #expect(lines.last == "All 12 checks passed.")
    }

    @Test func recordWritesTheThighsColumnsWithAThighSensor() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("two.csv")
        let result = try RomdevProcess.run([
            "record", "--simulate", "--thigh-address", "0x69", "--thigh-motion", "sway", "--seconds", "0.5",
            "--output", file,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Recorded 100 samples (0.50 s at 200 Hz, MPU-6050/6000)"))
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let header =
            "time_s,accel_x_g,accel_y_g,accel_z_g,gyro_x_dps,gyro_y_dps,gyro_z_dps,temp_c,"
            + "thigh_accel_x_g,thigh_accel_y_g,thigh_accel_z_g,thigh_gyro_x_dps,thigh_gyro_y_dps,thigh_gyro_z_dps,"
            + "truth_angle_deg"
        #expect(lines.first.map(String.init) == header)
        let times = lines.dropFirst().map { String($0.split(separator: ",")[0]) }
        #expect(times == (0..<100).map { String(format: "%.3f", Double($0) * 0.005) })
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",").count == 15 })
        // The thigh board lies level on top of the thigh: about 1 g along its z.
        let thighZ = lines.dropFirst().compactMap { Double($0.split(separator: ",")[10]) }
        #expect(thighZ.count == 100)
        #expect(thighZ.allSatisfy { abs($0 - 1) < 0.15 })
    }

    @Test func recordRepeatsForASeed() throws {
        let directory = try TemporaryDirectory()
        func columns(_ name: String, seed: String) throws -> [String] {
            let file = directory.path(name)
            let result = try RomdevProcess.run(
                ["record", "--simulate", "--scenario", "still", "--seconds", "0.3", "--output", file, "--seed", seed])
            #expect(result.status == 0, "\(result.stderr)")
            // The temperature is read when the FIFO is drained, which follows host timing.
            return try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map {
                let fields = $0.split(separator: ",")
                return (fields[0..<7] + fields[8...]).joined(separator: ",")
            }
        }
        let first = try columns("a.csv", seed: "12")
        #expect(try columns("b.csv", seed: "12") == first)
        #expect(try columns("c.csv", seed: "13") != first)
    }

    @Test func recordNeverOverwrites() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("kept.csv")
        try "precious\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try RomdevProcess.run(["record", "--simulate", "--seconds", "1", "--output", file])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: will not overwrite \(file)\n"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious\n")
    }

    @Test func recordFromAMissingBusCreatesNoFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("none.csv")
        let result = try RomdevProcess.run(["record", "--bus", "/dev/i2c-97", "--seconds", "1", "--output", file])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: could not open the sensor: cannot open /dev/i2c-97"))
        #expect(result.stderr.contains("Hint: enable I2C"))
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test(arguments: [
        ["record", "--seconds", "0", "--output", "x.csv"],
        ["record", "--seconds", "-1", "--output", "x.csv"],
        ["record", "--seconds", "ten", "--output", "x.csv"],
        ["record", "--output", "x.csv"],
        ["record", "--seconds", "1"],
        ["record", "--seconds", "1", "--output", "x.csv", "--seed", "4"],
        ["record", "--seconds", "1", "--output", "x.csv", "--simulate", "--scenario", "jumping"],
        ["record", "--seconds", "1", "--output", "x.csv", "--scenario", "still"],
        ["doctor", "--address", "0x70"],
        ["doctor", "--simulate", "--seed", "minus"],
        ["doctor", "--simulate=jumping"],
        ["doctor", "--simulate=still", "--scenario", "still"],
        ["doctor", "--simulate", "--thigh-address", "0x68"],
        ["doctor", "--simulate", "--address", "0x69", "--thigh-address", "0x69"],
        ["doctor", "--thigh-motion", "sway"],
        ["doctor", "--simulate", "--thigh-motion", "wobble"],
    ])
    func usageErrorsExit64(arguments: [String]) throws {
        let result = try RomdevProcess.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stdout.isEmpty)
    }
}
