import Foundation
import Testing

@testable import RomdevCLI

/// `romdev replay` over recordings written in the test: a seated extension to 75° and back, the
/// sensor's x forward and z up the shin, with a constant gyro bias the filter must learn at rest.
struct ReplayCommandTests {
    static let header = "time_s,accel_x_g,accel_y_g,accel_z_g,gyro_x_dps,gyro_y_dps,gyro_z_dps,temp_c,truth_angle_deg"

    /// 0 for 2.5 s, up to 75° in 1.5 s, held 1 s, down in 1.5 s, still 4 s; 100 Hz.
    static func extensionCSV() -> String {
        func angle(_ t: Double) -> Double {
            let frames: [(Double, Double)] = [(2.5, 0), (4, 75), (5, 75), (6.5, 0)]
            guard t > frames[0].0 else { return 0 }
            for (a, b) in zip(frames, frames.dropFirst()) where t < b.0 {
                return a.1 + (b.1 - a.1) * (1 - cos(Double.pi * (t - a.0) / (b.0 - a.0))) / 2
            }
            return 0
        }
        var lines = [header]
        for i in 0..<1050 {
            let t = Double(i) / 100, theta = angle(t) * Double.pi / 180
            let rate = (angle(t + 1e-4) - angle(t - 1e-4)) / 2e-4
            lines.append("\(t),\(sin(theta)),0,\(cos(theta)),0.7,\(-rate - 1.2),0.3,30,\(angle(t))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func write(_ text: String, _ name: String, in romdev: InProcessRomdev) throws -> String {
        let path = romdev.directory.path + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func measuresTheRangeAndWritesATrace() throws {
        let romdev = try InProcessRomdev()
        let file = try write(Self.extensionCSV(), "extension.csv", in: romdev)
        let trace = romdev.directory.path + "/trace.csv"
        let output = try romdev.run(["replay", file, "--json", "--trace", trace])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let range = try #require(json["range"] as? Double)
        #expect(abs(range - 75) < 0.5)
        #expect(json["ended"] as? String == "returned")
        #expect(json["units"] as? String == "deg")
        #expect((json["flags"] as? [String])?.isEmpty == true)
        let rows = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(rows.first == "time_s,gravity_x,gravity_y,gravity_z,angle_deg,knee_angle_deg")
        #expect(rows.count == 1051)
        // One sensor: the knee angle of the seated assumption, 90° − the angle.
        for row in rows.dropFirst() {
            let fields = row.split(separator: ",").compactMap { Double($0) }
            #expect(abs(fields[5] - (90 - fields[4])) < 0.0015)
        }
    }

    /// A seated extension to 75° and back while the thigh slides 6° up and stays there (the knee's
    /// own angle is what counts), with both sensors strapped alike; 100 Hz.
    static func twoSensorCSV() -> String {
        func eased(_ t: Double, _ frames: [(Double, Double)]) -> Double {
            guard t > frames[0].0 else { return frames[0].1 }
            for (a, b) in zip(frames, frames.dropFirst()) where t < b.0 {
                return a.1 + (b.1 - a.1) * (1 - cos(Double.pi * (t - a.0) / (b.0 - a.0))) / 2
            }
            return frames[frames.count - 1].1
        }
        func knee(_ t: Double) -> Double { eased(t, [(2.5, 0), (4, 75), (5, 75), (6.5, 0)]) }
        func thigh(_ t: Double) -> Double { eased(t, [(2.5, 0), (6.5, 6)]) }
        func rate(_ f: (Double) -> Double, _ t: Double) -> Double { (f(t + 1e-4) - f(t - 1e-4)) / 2e-4 }
        var lines = [
            "time_s,accel_x_g,accel_y_g,accel_z_g,gyro_x_dps,gyro_y_dps,gyro_z_dps,temp_c,"
                + "thigh_accel_x_g,thigh_accel_y_g,thigh_accel_z_g,thigh_gyro_x_dps,thigh_gyro_y_dps,thigh_gyro_z_dps"
        ]
        for i in 0..<1050 {
            let t = Double(i) / 100
            let shank = (knee(t) + thigh(t)) * Double.pi / 180, pitch = thigh(t) * Double.pi / 180
            let shankRate = rate(knee, t) + rate(thigh, t), thighRate = rate(thigh, t)
            lines.append(
                "\(t),\(sin(shank)),0,\(cos(shank)),0.7,\(-shankRate - 1.2),0.3,30,"
                    + "\(sin(pitch)),0,\(cos(pitch)),-0.4,\(-thighRate + 0.9),0.2")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aRecordingWithTheThighSensorIsMeasuredWithBoth() throws {
        let romdev = try InProcessRomdev()
        let file = try write(Self.twoSensorCSV(), "both.csv", in: romdev)
        let trace = romdev.directory.path + "/trace.csv"
        let output = try romdev.run(["replay", file, "--json", "--trace", trace])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(json["knee_source"] as? String == "thigh-sensor")
        // The shank turned by 81° and came back 6° higher; the knee bent by 75° and came back.
        // Uncalibrated, with the thigh turning through the hold, the peak is the filters' (0.8° off).
        let extensionAngle = try #require(json["knee_extension"] as? Double)
        let flexion = try #require(json["knee_flexion"] as? Double)
        #expect(abs(extensionAngle - 15) < 1)
        #expect(abs(flexion - 90) < 0.5)
        #expect(abs(try #require(json["finish"] as? Double)) < 0.5)
        #expect((json["flags"] as? [String])?.isEmpty == true)
        let rows = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(rows.first == "time_s,gravity_x,gravity_y,gravity_z,angle_deg,knee_angle_deg")
        #expect(rows.count == 1051)
        let knee = rows.dropFirst().compactMap { Double($0.split(separator: ",")[5]) }
        // The filters' knee angle in real time: 90° at rest, 15° at the peak, 90° once back.
        #expect(abs(knee[100] - 90) < 1)
        #expect(abs(knee[450] - 15) < 1)
        #expect(abs(knee[1040] - 90) < 1)

        // The same shank without its thigh carries the thigh's 6°.
        let shankOnly = Self.twoSensorCSV().split(separator: "\n").map {
            $0.split(separator: ",").prefix(8).joined(separator: ",")
        }
        let oneFile = try write(shankOnly.joined(separator: "\n") + "\n", "shank.csv", in: romdev)
        let one = try #require(
            try JSONSerialization.jsonObject(with: Data(try romdev.run(["replay", oneFile, "--json"]).utf8))
                as? [String: Any])
        #expect(one["knee_source"] as? String == "seated-assumption")
        #expect(abs(try #require(one["finish"] as? Double) - 6) < 0.5)
    }

    @Test func printsTheResultAsText() throws {
        let romdev = try InProcessRomdev()
        let file = try write(Self.extensionCSV(), "extension.csv", in: romdev)
        let output = try romdev.run(["replay", file])
        #expect(output.hasPrefix("Range of motion: 75."))
        #expect(output.contains("reference range 75.0°"))
    }

    @Test func namesTheLineOfAMalformedRecording() throws {
        let romdev = try InProcessRomdev()
        let file = try write(Self.header + "\n0,0,0,1,0,0,0,30,0\n0.01,0,0,1,0,zero,0,30,0\n", "bad.csv", in: romdev)
        let failure = try #require(romdev.failure(["replay", file]) as? CommandFailure)
        #expect(failure.why == "line 3, column 6: 'zero' is not a finite number")
    }

    @Test func refusesAMissingFileAndAForeignCalibration() throws {
        let romdev = try InProcessRomdev()
        let missing = try #require(romdev.failure(["replay", romdev.directory.path + "/none.csv"]) as? CommandFailure)
        #expect(missing.why == "no such file")
        let file = try write(Self.extensionCSV(), "extension.csv", in: romdev)
        let calibration = try write(#"{"version": 3}"#, "calibration.json", in: romdev)
        let foreign = try #require(romdev.failure(["replay", file, "--calibration", calibration]) as? CommandFailure)
        #expect(foreign.why == "it has format version 3; this romdev reads versions 1 and 2")
    }

    @Test func aMissingFileArgumentIsAUsageError() {
        #expect(throws: UsageError.self) { try Romdev.tool.parse(["replay"]) }
    }
}
