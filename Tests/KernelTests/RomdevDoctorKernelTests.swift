import Sensor
import XCTest

/// `romdev doctor` on the real `/dev/i2c-N`: the installer's check of the sensor, from opening the
/// bus to the configuration, with the errors the kernel gives. i2c-stub never completes a reset,
/// so the configuration check is where doctor stops on it.
final class RomdevDoctorKernelTests: XCTestCase {
    private var busPath = ""

    override func setUpWithError() throws {
        try KernelGuest.require()
        busPath = try I2CStub.devicePath()
        try I2CStub.seedPowerOnState(try I2CStub.openBus())
    }

    func testChecksPassUpToTheResetTheStubCannotComplete() throws {
        let run = try RomdevDoctor.run(["--bus", busPath])
        XCTAssertEqual(run.status, 1)
        XCTAssertFalse(run.report.passed)
        XCTAssertEqual(run.report.source, busPath)
        XCTAssertEqual(run.report.address, "0x68")
        XCTAssertEqual(
            run.report.checks.map(\.status), ["pass", "pass", "pass", "pass", "fail", "skip", "skip", "skip"],
            "\(run.report.checks)")
        XCTAssertEqual(run.report.checks.last?.sensor, "thigh")
        XCTAssertTrue(run.report.checks.last?.detail.hasPrefix("not configured") == true)
        XCTAssertEqual(run.report.check("bus")?.detail, "\(busPath) opened")
        XCTAssertEqual(run.report.check("identity")?.detail, "MPU-6050/6000 (WHO_AM_I 0x68)")
        XCTAssertEqual(
            run.report.check("configuration")?.detail,
            MPU6050Error.resetTimedOut(address: I2CStub.address, devicePath: busPath).description)
        XCTAssertTrue(run.stderr.contains("1 of 8 sensor checks failed"), run.stderr)
    }

    func testAConfiguredThighSensorThatDoesNotAnswerFailsItsDeviceCheck() throws {
        let run = try RomdevDoctor.run(["--bus", busPath, "--thigh-address", "0x69"])
        XCTAssertEqual(run.status, 1)
        let thigh = run.report.checks.filter { $0.sensor == "thigh" }
        XCTAssertEqual(thigh.map(\.status), ["fail", "skip", "skip", "skip", "skip"])
        let detail = try XCTUnwrap(thigh.first?.detail)
        XCTAssertTrue(detail.hasPrefix("i2c read of 1 byte at 0x75 from 0x69 on \(busPath): "), detail)
        XCTAssertTrue(thigh.first?.hint?.contains("thigh_address = none") == true)
    }

    func testUnknownIdentityStopsAtTheIdentityCheck() throws {
        try I2CStub.openBus().writeByte(0x5A, register: MPU6050Register.whoAmI)
        let run = try RomdevDoctor.run(["--bus", busPath])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.report.check("device")?.status, "pass")
        XCTAssertEqual(run.report.check("identity")?.status, "fail")
        XCTAssertEqual(
            run.report.check("identity")?.detail,
            MPU6050Error.unexpectedIdentity(whoAmI: 0x5A, address: I2CStub.address, devicePath: busPath).description)
    }

    func testNothingAtTheAddressFailsTheDeviceCheck() throws {
        let run = try RomdevDoctor.run(["--bus", busPath, "--address", "0x69"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.report.address, "0x69")
        XCTAssertEqual(
            run.report.checks.map(\.status), ["pass", "pass", "fail", "skip", "skip", "skip", "skip", "skip"])
        let detail = try XCTUnwrap(run.report.check("device")?.detail)
        XCTAssertTrue(detail.hasPrefix("i2c read of 1 byte at 0x75 from 0x69 on \(busPath): "), detail)
    }

    func testMissingBusFailsTheFirstCheckWithAHint() throws {
        let path = "/dev/i2c-250"
        let run = try RomdevDoctor.run(["--bus", path])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.report.checks.map(\.status), ["fail", "skip", "skip", "skip", "skip", "skip", "skip", "skip"])
        XCTAssertEqual(run.report.check("bus")?.detail, "cannot open \(path): No such file or directory (ENOENT)")
        XCTAssertEqual(
            run.report.check("bus")?.hint, I2CError(.open, devicePath: path, errno: .noSuchFileOrDirectory).hint)
    }
}
