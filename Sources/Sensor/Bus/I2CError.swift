import LinuxSystem

/// A failed I2C operation, naming the operation, device node, address, register and errno, e.g.
/// `i2c read of 14 bytes at 0x3B from 0x68 on /dev/i2c-1: Remote I/O error (EREMOTEIO)`.
public struct I2CError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being attempted.
    public enum Operation: Equatable, Sendable {
        case open
        case queryFunctionality
        case selectAddress
        /// A read of `count` bytes.
        case read(count: Int)
        /// A one-byte register write.
        case write(value: UInt8)
        case close
    }

    /// What was being attempted.
    public var operation: Operation
    /// The device node, e.g. `/dev/i2c-1`.
    public var devicePath: String
    /// The 7-bit target address, when one was selected.
    public var address: UInt8?
    /// The first register of the transfer, for reads and writes.
    public var register: UInt8?
    /// Why it failed.
    public var errno: Errno

    public init(
        _ operation: Operation, devicePath: String, address: UInt8? = nil, register: UInt8? = nil,
        errno: Errno
    ) {
        self.operation = operation
        self.devicePath = devicePath
        self.address = address
        self.register = register
        self.errno = errno
    }

    public var description: String {
        "\(what): \(errno)"
    }

    private var what: String {
        let on = "on \(devicePath)"
        let at = register.map { " at \(hex($0))" } ?? ""
        let device = address.map { hex($0) } ?? "(no address)"
        switch operation {
        case .open: return "cannot open \(devicePath)"
        case .queryFunctionality: return "cannot query the adapter functionality of \(devicePath)"
        case .selectAddress: return "cannot select address \(device) \(on)"
        case .read(let count):
            return "i2c read of \(count) byte\(count == 1 ? "" : "s")\(at) from \(device) \(on)"
        case .write(let value): return "i2c write of \(hex(value))\(at) to \(device) \(on)"
        case .close: return "cannot close \(devicePath)"
        }
    }

    /// What to try next, when the errno points at a usual cause (access rights, I2C disabled,
    /// nothing answering at the address).
    public var hint: String? {
        // A transfer that finds no device is a missing acknowledge, whatever errno the adapter
        // picks for it: EREMOTEIO (i2c-bcm2835), ENXIO, or ENODEV (i2c-stub and some SMBus
        // controllers). Only opening the node with ENODEV means the adapter itself is absent.
        var isTransfer: Bool {
            switch operation {
            case .read, .write: true
            default: false
            }
        }
        switch errno {
        case .noSuchDevice where isTransfer, .remoteIO, .noSuchDeviceOrAddress:
            return "nothing acknowledged \(address.map { hex($0) } ?? "the address"): check power, SDA/SCL "
                + "wiring and the AD0 pin (low = 0x68, high = 0x69); `i2cdetect -y 1` lists devices"
        case .permissionDenied, .notPermitted:
            return "add the user to the group that owns \(devicePath) (romdev, or i2c on Raspberry Pi OS; "
                + "install udev/60-romdev.rules) and log in again"
        case .noSuchFileOrDirectory, .noSuchDevice:
            return "enable I2C (dtparam=i2c_arm=on in /boot/firmware/config.txt, then reboot) "
                + "and load the i2c-dev module (modprobe i2c-dev); `ls /dev/i2c-*` lists the buses"
        case .resourceBusy:
            return "a kernel driver is bound to this address; unbind it (the driver does not force access)"
        case .timedOut, .ioError:
            return "the bus is unreliable: check wiring length, pull-up resistors and the bus speed"
        default:
            return nil
        }
    }
}

/// `0x3b` style, as i2c-tools prints addresses, upper-case digits: `0x3B`.
func hex(_ value: UInt8) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + (digits.count == 1 ? "0" + digits : digits)
}
