import CI2C
import LinuxSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An I2C adapter through the kernel's `i2c-dev` interface (`/dev/i2c-N`).
///
/// Every raw C call of the I2C seam lives in this file. libi2c's SMBus functions return `-errno`
/// rather than setting `errno`, so results are mapped with `Errno(rawValue: -result)`. Reads,
/// writes and ioctls are retried on `EINTR`; `close` never is.
public final class LinuxI2CBus: I2CBus {
    /// The device node, e.g. `/dev/i2c-1`.
    public let devicePath: String
    private var descriptor: CInt
    private var address: UInt8?

    /// Opens an adapter node read-write.
    /// The corresponding call is `open(path, O_RDWR | O_CLOEXEC)`.
    /// - Throws: `I2CError` for `.open`, with a hint for `EACCES` (group, udev rule) and `ENOENT`
    ///   (I2C not enabled).
    public init(path: String) throws(I2CError) {
        devicePath = path
        do {
            descriptor = try retryingOnInterrupt { () throws(Errno) -> CInt in
                let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
                if fd < 0 { throw Errno.current }
                return fd
            }
        } catch {
            throw I2CError(.open, devicePath: path, errno: error)
        }
    }

    /// Opens `/dev/i2c-N`, or `/dev/i2c/N` where udev names nodes that way (as i2c-tools does).
    public convenience init(busNumber: Int) throws(I2CError) {
        do {
            try self.init(path: "/dev/i2c-\(busNumber)")
        } catch  where error.errno == .noSuchFileOrDirectory {
            do {
                try self.init(path: "/dev/i2c/\(busNumber)")
            } catch  where error.errno == .noSuchFileOrDirectory {
                throw I2CError(.open, devicePath: "/dev/i2c-\(busNumber)", errno: error.errno)
            }
        }
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Closes the node. Never retried: after `EINTR` Linux has already released the descriptor.
    /// The corresponding call is `close(fd)`. Calling it again does nothing.
    public func close() throws(I2CError) {
        guard descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result < 0 { throw I2CError(.close, devicePath: devicePath, errno: Errno.current) }
    }

    public func functionality() throws(I2CError) -> I2CFunctionality {
        var funcs: UInt = 0
        do {
            try retryingOnInterrupt { () throws(Errno) in
                if romdev_i2c_functionality(descriptor, &funcs) < 0 { throw Errno.current }
            }
        } catch {
            throw I2CError(.queryFunctionality, devicePath: devicePath, errno: error)
        }
        return I2CFunctionality(rawValue: funcs)
    }

    public func selectAddress(_ address: UInt8) throws(I2CError) {
        do {
            try retryingOnInterrupt { () throws(Errno) in
                if romdev_i2c_select_address(descriptor, UInt(address)) < 0 { throw Errno.current }
            }
        } catch {
            throw I2CError(.selectAddress, devicePath: devicePath, address: address, errno: error)
        }
        self.address = address
    }

    public func readByte(register: UInt8) throws(I2CError) -> UInt8 {
        let result = try smbus(.read(count: 1), register: register) {
            i2c_smbus_read_byte_data(descriptor, register)
        }
        return UInt8(truncatingIfNeeded: result)
    }

    public func writeByte(_ value: UInt8, register: UInt8) throws(I2CError) {
        _ = try smbus(.write(value: value), register: register) {
            i2c_smbus_write_byte_data(descriptor, register, value)
        }
    }

    public func readBlock(register: UInt8, into bytes: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
        let count = bytes.count
        precondition((1...I2CBlock.maximumLength).contains(count), "I2C block reads are 1...32 bytes")
        let received = try smbus(.read(count: count), register: register) {
            i2c_smbus_read_i2c_block_data(descriptor, register, UInt8(count), bytes.baseAddress)
        }
        // A short block read leaves the device's register pointer somewhere we did not ask for;
        // treat it as an I/O error rather than hand back stale bytes.
        guard received == count else {
            throw I2CError(
                .read(count: count), devicePath: devicePath, address: address, register: register,
                errno: .ioError)
        }
    }

    /// Runs one libi2c call, mapping its `-errno` result and retrying `EINTR`.
    private func smbus(
        _ operation: I2CError.Operation, register: UInt8, _ call: () -> Int32
    ) throws(I2CError) -> Int32 {
        do {
            return try retryingOnInterrupt { () throws(Errno) -> Int32 in
                let result = call()
                if result < 0 { throw Errno(rawValue: -result) }
                return result
            }
        } catch {
            throw I2CError(
                operation, devicePath: devicePath, address: address, register: register, errno: error)
        }
    }
}
