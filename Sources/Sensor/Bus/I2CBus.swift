import CI2C

/// One I2C adapter as user space sees it through `i2c-dev`: pick a target address, then run SMBus
/// transfers against it. The seam between the sensor driver and the kernel; `LinuxI2CBus` talks to
/// `/dev/i2c-N`, `SimulatedMPU6050` is a register-level device behind the same calls.
///
/// Every transfer goes to the address chosen by the last `selectAddress(_:)`.
public protocol I2CBus: AnyObject {
    /// The device node (`/dev/i2c-1`) or, for a simulated bus, a name; used in error messages.
    var devicePath: String { get }

    /// What the adapter can do. The corresponding call is `ioctl(fd, I2C_FUNCS, &funcs)`.
    func functionality() throws(I2CError) -> I2CFunctionality

    /// Directs the following transfers to a 7-bit address, without forcing past a kernel driver
    /// bound to it. The corresponding call is `ioctl(fd, I2C_SLAVE, address)`.
    func selectAddress(_ address: UInt8) throws(I2CError)

    /// Reads one register. The corresponding call is `i2c_smbus_read_byte_data`.
    func readByte(register: UInt8) throws(I2CError) -> UInt8

    /// Writes one register. The corresponding call is `i2c_smbus_write_byte_data`.
    func writeByte(_ value: UInt8, register: UInt8) throws(I2CError)

    /// Reads `bytes.count` bytes starting at `register` in one combined transfer (the device
    /// auto-increments the register, or not, as it does on the chip) into the caller's storage, so
    /// a loop that reads every tick need not allocate.
    /// The corresponding call is `i2c_smbus_read_i2c_block_data`.
    /// - Parameter bytes: 1...`I2CBlock.maximumLength` (32) bytes.
    func readBlock(register: UInt8, into bytes: UnsafeMutableBufferPointer<UInt8>) throws(I2CError)
}

extension I2CBus {
    /// Reads `count` bytes starting at `register` into a new array: for reads off the sampling
    /// path (bring-up, checks), where an allocation does not matter.
    /// - Parameter count: 1...`I2CBlock.maximumLength` (32) bytes.
    public func readBlock(register: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        // The error leaves the closure by hand: Swift 6.0 types what a rethrowing closure throws
        // as `any Error`.
        var failure: I2CError?
        bytes.withUnsafeMutableBufferPointer { buffer in
            do throws(I2CError) { try readBlock(register: register, into: buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }
}

/// Limits of SMBus-style block transfers.
public enum I2CBlock {
    /// The longest I2C block read `i2c-dev` accepts, `I2C_SMBUS_BLOCK_MAX` (32 bytes).
    public static let maximumLength = Int(I2C_SMBUS_BLOCK_MAX)
}

/// Transfer types an adapter supports, as reported by `I2C_FUNCS` (`<linux/i2c.h>`).
public struct I2CFunctionality: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Plain I2C messages. The corresponding C constant is `I2C_FUNC_I2C`.
    public static let plainI2C = I2CFunctionality(rawValue: UInt(I2C_FUNC_I2C))
    /// SMBus read byte data. The corresponding C constant is `I2C_FUNC_SMBUS_READ_BYTE_DATA`.
    public static let readByteData = I2CFunctionality(rawValue: UInt(I2C_FUNC_SMBUS_READ_BYTE_DATA))
    /// SMBus write byte data. The corresponding C constant is `I2C_FUNC_SMBUS_WRITE_BYTE_DATA`.
    public static let writeByteData = I2CFunctionality(rawValue: UInt(I2C_FUNC_SMBUS_WRITE_BYTE_DATA))
    /// I2C block reads of up to 32 bytes. The corresponding C constant is
    /// `I2C_FUNC_SMBUS_READ_I2C_BLOCK`.
    public static let readI2CBlock = I2CFunctionality(rawValue: UInt(I2C_FUNC_SMBUS_READ_I2C_BLOCK))

    /// What the MPU-6050 driver relies on.
    public static let mpu6050Driver: I2CFunctionality = [.readByteData, .writeByteData, .readI2CBlock]
}
