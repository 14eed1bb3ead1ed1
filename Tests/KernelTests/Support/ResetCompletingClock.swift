import Sensor

/// Real time for the driver's waits, plus the one thing a register file cannot do itself: when a
/// real MPU-6050's reset ends it clears DEVICE_RESET and is back in its power-on state. Each wait
/// that finds DEVICE_RESET set does that to the stub, as the chip would have done by then.
final class ResetCompletingClock: MonotonicClock {
    private let system = SystemClock()
    private let chip: LinuxI2CBus
    private let whoAmI: UInt8
    /// How many resets this clock completed.
    private(set) var completedResets = 0

    /// - Parameters:
    ///   - chip: A bus of its own on the stub, the chip's address selected.
    ///   - whoAmI: The identity the chip keeps through the reset.
    init(chip: LinuxI2CBus, whoAmI: UInt8) {
        self.chip = chip
        self.whoAmI = whoAmI
    }

    var now: Double { system.now }

    func sleep(seconds: Double) {
        system.sleep(seconds: seconds)
        // A failed transfer here shows up as the driver's own read failing right after.
        guard let power = try? chip.readByte(register: MPU6050Register.powerManagement1),
            power & MPU6050Bits.deviceReset != 0
        else { return }
        try? I2CStub.seedPowerOnState(chip, whoAmI: whoAmI)
        completedResets += 1
    }
}
