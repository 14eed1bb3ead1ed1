import Sensor

/// The guest's i2c-stub adapter: an SMBus-only register file of 256 bytes per chip address
/// (0x68 here), starting at zero and keeping its contents between opens, so each test seeds what
/// it reads.
enum I2CStub {
    /// The address the guest loads i2c-stub with (`chip_addr=0x68`, the sensor's AD0-low address).
    static let address: UInt8 = 0x68
    /// The name i2c-stub gives its adapter in sysfs.
    static let adapterName = "SMBus stub driver"

    /// The stub's device node.
    static func devicePath() throws -> String {
        try I2CAdapter.devicePath(named: adapterName)
    }

    /// Opens the stub's node with the chip's address selected.
    static func openBus() throws -> LinuxI2CBus {
        try I2CAdapter.openBus(named: adapterName, address: address)
    }

    /// Writes `values` from `register` on, one SMBus byte write each.
    static func seed(_ bus: LinuxI2CBus, _ values: [UInt8], from register: UInt8) throws {
        for (index, value) in values.enumerated() {
            try bus.writeByte(value, register: register + UInt8(index))
        }
    }

    /// Puts the register file in an MPU-6050's power-on state (register map §3: every register 0
    /// except PWR_MGMT_1 = 0x40, asleep) with WHO_AM_I = `whoAmI`.
    static func seedPowerOnState(_ bus: LinuxI2CBus, whoAmI: UInt8 = 0x68) throws {
        try seed(bus, [UInt8](repeating: 0, count: 0x75), from: 0)
        try bus.writeByte(MPU6050Bits.sleep, register: MPU6050Register.powerManagement1)
        try bus.writeByte(whoAmI, register: MPU6050Register.whoAmI)
    }
}
