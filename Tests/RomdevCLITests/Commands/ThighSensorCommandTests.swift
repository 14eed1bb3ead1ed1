import Foundation
import Sensor
import Testing

@testable import RomdevCLI

/// The thigh sensor on the command line, in process on the simulated adapter, faster than real
/// time: the option, the refusal of a configured sensor that does not answer, and a whole
/// measurement with both sensors.
struct ThighSensorCommandTests {
    @Test func theOptionNamesTheThighAndRefusesOneAddressForBoth() throws {
        guard case .run(let action) = try Romdev.tool.parse(["doctor", "--simulate", "--thigh-address", "0x69"]),
            let doctor = action as? DoctorAction
        else { throw UsageError("not a doctor") }
        #expect(doctor.source.thighAddress == 0x69)
        #expect(doctor.source.address == 0x68)
        guard case .run(let plain) = try Romdev.tool.parse(["doctor", "--simulate"]),
            let alone = plain as? DoctorAction
        else { throw UsageError("not a doctor") }
        #expect(alone.source.thighAddress == nil)
        #expect(throws: UsageError.self) {
            try Romdev.tool.parse(["doctor", "--address", "0x69", "--thigh-address", "0x69"])
        }
    }

    @Test func aConfiguredThighSensorThatDoesNotAnswerIsRefusedNamingItsAddressAndBus() throws {
        let clock = ManualClock()
        let source = SensorSource(
            .simulator(scenario: "knee-extension", seed: 1, address: 0x68, thighMotion: nil), thighAddress: 0x69)
        // The bus with the shank's board alone.
        let adapter = SimulatedI2CAdapter(scenario: .kneeExtension(seed: 1), fittingThigh: false, clock: clock)
        let opened = OpenedSensorBus(bus: adapter.open(), thighBus: adapter.open(), adapter: adapter)
        #expect {
            _ = try source.configuredSensors(on: opened, clock: clock)
        } throws: { error in
            guard let failure = error as? CommandFailure else { return false }
            return failure.what == "no MPU-6050 answers at 0x69 on simulated-i2c (the thigh sensor)"
                && failure.why?.contains("EREMOTEIO") == true && failure.hint?.contains("AD0") == true
                && failure.exitStatus != 0
        }
    }

    @Test func aMeasurementWithTheThighSensorCompletesWithBothSensorsDrained() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let output = try romdev.run([
            "measure", "--simulate", "--seed", "4", "--thigh-address", "0x69", "--thigh-motion", "sway", "--json",
        ])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(json["ended"] as? String == "returned")
        let samples = try #require(json["samples"] as? Int)
        let thighSamples = try #require(json["thigh_samples"] as? Int)
        #expect(json["lost_samples"] as? Int == 0)
        #expect(json["thigh_lost_samples"] as? Int == 0)
        // Every shank sample the session took was paired; the thigh's clock runs 0.4 % apart and
        // its board was brought up 0.1 s after the shank's, so its count differs by a few dozen.
        #expect(samples > 1000)
        #expect(abs(thighSamples - samples) < samples / 50)
    }

    @Test func aCalibrationWithTheThighSensorCompletes() throws {
        let romdev = try InProcessRomdev()
        let output = try romdev.run(["calibrate", "--simulate", "--seed", "2", "--thigh-address", "0x69"])
        #expect(output.hasSuffix("Saved to \(romdev.directory.path)/calibration.json.\n"))
    }

    @Test func aMeasurementWithoutTheThighSensorSaysNothingOfIt() throws {
        let romdev = try InProcessRomdev()
        try romdev.initialiseAndOnboard()
        let output = try romdev.run(["measure", "--simulate", "--seed", "4", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(json["thigh_samples"] == nil)
    }
}
