import Foundation
import Testing

@testable import Fusion

struct RecordingTests {
    let header = Recording.header

    @Test func parsesSamplesAtAnyRate() throws {
        let text = "\(header)\n0,0,0,1,0.5,0,0,30.5\n0.004,0.01,0,0.99,0.5,-1,0,30.5\n0.0125,0,0,1,0,0,2,30.6\n"
        let recording = try Recording(csv: text)
        #expect(recording.samples.count == 3)
        #expect(
            recording.samples[1]
                == InertialSample(time: 0.004, acceleration: Vector3(0.01, 0, 0.99), rotationRate: Vector3(0.5, -1, 0)))
        #expect(recording.temperatures == [30.5, 30.5, 30.6])
        #expect(recording.truthAngles == nil)
    }

    @Test func parsesTheTruthColumnAndCRLF() throws {
        let text = "\(header),truth_angle_deg\r\n0,0,0,1,0,0,0,25,0\r\n0.01,0,0,1,0,0,0,25,1.5\r\n"
        let recording = try Recording(csv: text)
        #expect(recording.truthAngles == [0, 1.5])
    }

    @Test(arguments: [
        ("", RecordingError.empty),
        ("time,ax\n0,1", .unexpectedHeader("time,ax")),
        ("HEADER\n", .noSamples),
        ("HEADER\n0,0,0,1,0,0,0,25\n0.01,0,0,1,0,0,25\n", .wrongFieldCount(line: 3, expected: 8, found: 7)),
        ("HEADER\n0,0,0,1,0,0,0,25\n0.01,0,0,1,x,0,0,25\n", .invalidNumber(line: 3, column: 5, text: "x")),
        ("HEADER\n0,0,0,1,0,0,0,25\n0.01,0,0,nan,0,0,0,25\n", .invalidNumber(line: 3, column: 4, text: "nan")),
        ("HEADER\n0,0,0,1,0,0,0,25\n\n0.02,0,0,1,0,0,0,25\n", .wrongFieldCount(line: 3, expected: 8, found: 1)),
        ("HEADER\n0.5,0,0,1,0,0,0,25\n0.5,0,0,1,0,0,0,25\n", .timeNotIncreasing(line: 3)),
    ])
    func reportsTheLineOfTheFirstProblem(text: String, expected: RecordingError) {
        #expect(throws: expected) {
            try Recording(csv: text.replacingOccurrences(of: "HEADER", with: header))
        }
    }

    /// 1e308 °/s used to reach the output as NaN; a value beyond the sensor's full scale is refused
    /// with its line and column.
    @Test(arguments: [
        (
            "HEADER\n0,0,0,1,1e308,0,0,25\n",
            RecordingError.impossibleValue(line: 2, column: 5, name: "gyro_x_dps", value: 1e308)
        ),
        (
            "HEADER\n0,0,0,1,0,0,0,25\n0.01,16.5,0,1,0,0,0,25\n",
            .impossibleValue(line: 3, column: 2, name: "accel_x_g", value: 16.5)
        ),
        ("HEADER\n0,0,0,1,0,0,-2001,25\n", .impossibleValue(line: 2, column: 7, name: "gyro_z_dps", value: -2001)),
        ("HEADER\n0,0,0,1,0,0,0,-61\n", .impossibleValue(line: 2, column: 8, name: "temp_c", value: -61)),
        ("HEADER\n-1e300,0,0,1,0,0,0,25\n", .impossibleValue(line: 2, column: 1, name: "time_s", value: -1e300)),
        (
            "HEADER,truth_angle_deg\n0,0,0,1,0,0,0,25,720\n",
            .impossibleValue(line: 2, column: 9, name: "truth_angle_deg", value: 720)
        ),
    ])
    func refusesValuesBeyondTheSensorsRanges(text: String, expected: RecordingError) {
        #expect(throws: expected) {
            try Recording(csv: text.replacingOccurrences(of: "HEADER", with: header))
        }
    }

    @Test func parsesTheThighSensorsColumnsBeforeTheTruth() throws {
        let text =
            Recording.header(thigh: true, truth: true)
            + "\n0,0,0,1,0,0,0,25,0.5,0,0.8,1,-2,3,85\n0.005,0,0,1,0,0,0,25,0.4,0,0.9,0,0,0,84\n"
        let recording = try Recording(csv: text)
        #expect(recording.samples.count == 2)
        #expect(
            recording.thighSamples == [
                InertialSample(time: 0, acceleration: Vector3(0.5, 0, 0.8), rotationRate: Vector3(1, -2, 3)),
                InertialSample(time: 0.005, acceleration: Vector3(0.4, 0, 0.9), rotationRate: .zero),
            ])
        #expect(recording.truthAngles == [85, 84])
        let withoutTruth = try Recording(
            csv: Recording.header(thigh: true, truth: false) + "\n0,0,0,1,0,0,0,25,0,0,1,0,0,0\n")
        #expect(withoutTruth.thighSamples?.count == 1)
        #expect(withoutTruth.truthAngles == nil)
        #expect(try Recording(csv: "\(header)\n0,0,0,1,0,0,0,25\n").thighSamples == nil)
    }

    @Test func thighValuesAreCheckedAgainstTheirOwnColumns() {
        let text = Recording.header(thigh: true, truth: false) + "\n0,0,0,1,0,0,0,25,0,0,1,0,2500,0\n"
        let expected = RecordingError.impossibleValue(line: 2, column: 13, name: "thigh_gyro_y_dps", value: 2500)
        #expect(throws: expected) { try Recording(csv: text) }
        #expect(expected.description.contains("(thigh_gyro_y_dps from -2000.0 to 2000.0)"))
    }

    @Test func fullScaleReadingsAreAccepted() throws {
        let recording = try Recording(csv: "\(header)\n0,-16,0,16,2000,-2000,0,85\n0.005,0,0,1,0,0,0,-40\n")
        #expect(recording.samples.count == 2)
    }

    /// An all-zero accelerometer gave a clean range of 0°; without gravity there is no angle.
    @Test func refusesARecordingWithoutGravity() {
        let rows = (0..<100).map { "\(Double($0) * 0.005),0,0,0,0,0,0,25\n" }.joined()
        #expect(throws: RecordingError.noGravity(meanG: 0)) { try Recording(csv: "\(header)\n" + rows) }
        #expect(RecordingError.noGravity(meanG: 0).description.hasPrefix("the accelerometer reads 0.0 g on average"))
    }

    @Test func errorMessagesNameTheLine() {
        let error = RecordingError.invalidNumber(line: 7, column: 2, text: "abc")
        #expect(error.description == "line 7, column 2: 'abc' is not a finite number")
        #expect(error.line == 7)
    }
}
