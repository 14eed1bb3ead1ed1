/// Why the driver could not bring up or read the sensor. Bus failures keep the `I2CError` with its
/// device path, address, register and errno.
public enum MPU6050Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// An I2C transfer failed.
    case bus(I2CError)
    /// Only 0x68 (AD0 low) and 0x69 (AD0 high) are MPU-6050 addresses.
    case invalidAddress(UInt8)
    /// The adapter lacks transfers the driver needs (I2C block reads, above all).
    case adapterLacksFunctionality(devicePath: String, missing: I2CFunctionality)
    /// WHO_AM_I answered a value that is no known MPU-6050-family part.
    case unexpectedIdentity(whoAmI: UInt8, address: UInt8, devicePath: String)
    /// DEVICE_RESET did not clear itself.
    case resetTimedOut(address: UInt8, devicePath: String)
    /// A register read back differs from what was written.
    case configurationMismatch(register: UInt8, wrote: UInt8, read: UInt8)
    /// The FIFO delivered nothing for longer than the stall timeout although sampling is on.
    case fifoStalled(address: UInt8, devicePath: String, seconds: Double)
    /// Every read for `seconds` found the FIFO overflowed: the host reads less often than the FIFO
    /// lasts (`fifoSeconds`), so no sample can be delivered.
    case fifoOverrun(address: UInt8, devicePath: String, seconds: Double, fifoSeconds: Double)
    /// A read was attempted before `configure(_:)` succeeded.
    case notConfigured

    public var description: String {
        switch self {
        case .bus(let error):
            return error.description
        case .invalidAddress(let address):
            return "invalid MPU-6050 address \(hex(address)): use 0x68 (AD0 low) or 0x69 (AD0 high)"
        case .adapterLacksFunctionality(let path, let missing):
            return "the I2C adapter \(path) lacks required transfers (I2C_FUNCS missing "
                + "0x\(String(missing.rawValue, radix: 16))): it needs SMBus byte data and I2C block reads"
        case .unexpectedIdentity(let value, let address, let path):
            return "unexpected WHO_AM_I \(hex(value)) from \(hex(address)) on \(path): not an "
                + "MPU-6050-family sensor (expected 0x68, 0x70, 0x71, 0x73, 0x12, 0xAF, 0xAC, 0x98 or 0x03)"
        case .resetTimedOut(let address, let path):
            return "the sensor at \(hex(address)) on \(path) did not finish its reset"
        case .configurationMismatch(let register, let wrote, let read):
            return "configuration did not stick: register \(hex(register)) reads \(hex(read)) "
                + "after writing \(hex(wrote))"
        case .fifoStalled(let address, let path, let seconds):
            return "the FIFO of the sensor at \(hex(address)) on \(path) delivered no samples for "
                + "\(Self.format(seconds)) s although sampling is on"
        case .fifoOverrun(let address, let path, let seconds, let fifoSeconds):
            return "the FIFO of the sensor at \(hex(address)) on \(path) overflowed at every read for "
                + "\(Self.format(seconds)) s: it must be read at least every \(Self.format(fifoSeconds)) s"
        case .notConfigured:
            return "the sensor is not configured"
        }
    }

    /// What to try next, when there is a usual cause.
    public var hint: String? {
        switch self {
        case .bus(let error): error.hint
        case .unexpectedIdentity: "another chip answers at this address; `i2cdetect -y 1` lists devices"
        case .fifoOverrun: "the host is too busy or the read loop too slow; lower the load or the sample rate"
        case .configurationMismatch, .resetTimedOut, .fifoStalled:
            "power-cycle the sensor; if it persists, check wiring and supply voltage"
        default: nil
        }
    }

    private static func format(_ seconds: Double) -> String {
        String(Double(Int((seconds * 100).rounded())) / 100)
    }
}
