import LinuxSystem
import Testing

@testable import Sensor

@Suite struct I2CErrorTests {
    @Test func readNamesOperationRegisterAddressDeviceAndErrno() {
        let error = I2CError(
            .read(count: 14), devicePath: "/dev/i2c-1", address: 0x68, register: 0x3B, errno: .remoteIO)
        #expect(
            error.description == "i2c read of 14 bytes at 0x3B from 0x68 on /dev/i2c-1: Remote I/O error (EREMOTEIO)")
        #expect(error.hint?.contains("AD0") == true)
    }

    @Test func otherOperations() {
        #expect(
            I2CError(.write(value: 0x80), devicePath: "/dev/i2c-1", address: 0x69, register: 0x6B, errno: .ioError)
                .description == "i2c write of 0x80 at 0x6B to 0x69 on /dev/i2c-1: Input/output error (EIO)")
        #expect(
            I2CError(.read(count: 1), devicePath: "/dev/i2c-1", address: 0x68, register: 0x75, errno: .ioError)
                .description.hasPrefix("i2c read of 1 byte at 0x75 from 0x68"))
        #expect(
            I2CError(.selectAddress, devicePath: "/dev/i2c-1", address: 0x68, errno: .resourceBusy).description
                == "cannot select address 0x68 on /dev/i2c-1: Device or resource busy (EBUSY)")
    }

    @Test func aTransferThatFindsNoDeviceIsAMissingAcknowledgeWhateverTheErrno() {
        for errno in [Errno.remoteIO, .noSuchDeviceOrAddress, .noSuchDevice] {
            let error = I2CError(.read(count: 1), devicePath: "/dev/i2c-1", address: 0x69, register: 0x75, errno: errno)
            #expect(error.hint?.contains("nothing acknowledged 0x69") == true, "\(errno)")
        }
        // Opening the node with ENODEV: the adapter is what is missing.
        let adapter = I2CError(.open, devicePath: "/dev/i2c-1", errno: .noSuchDevice)
        #expect(adapter.hint?.contains("dtparam=i2c_arm=on") == true)
    }

    @Test func hintsForAccessAndMissingBus() {
        let denied = I2CError(.open, devicePath: "/dev/i2c-1", errno: .permissionDenied)
        #expect(denied.description == "cannot open /dev/i2c-1: Permission denied (EACCES)")
        #expect(denied.hint?.contains("udev/60-romdev.rules") == true)
        #expect(denied.hint?.contains("group") == true)
        let missing = I2CError(.open, devicePath: "/dev/i2c-1", errno: .noSuchFileOrDirectory)
        #expect(missing.hint?.contains("dtparam=i2c_arm=on") == true)
    }
}

@Suite struct LinuxI2CBusTests {
    @Test func missingNodeIsATypedOpenError() {
        #expect {
            _ = try LinuxI2CBus(path: "/nonexistent/i2c-9")
        } throws: { error in
            let error = error as? I2CError
            return error?.operation == .open && error?.errno == .noSuchFileOrDirectory
                && error?.devicePath == "/nonexistent/i2c-9"
        }
    }

    @Test func busNumberNamesTheUsualNode() {
        #expect {
            _ = try LinuxI2CBus(busNumber: 97)
        } throws: { error in
            (error as? I2CError)?.description.hasPrefix("cannot open /dev/i2c-97: No such file") == true
        }
    }

    /// /dev/null accepts open but no i2c-dev ioctl: every call must fail with context, not crash.
    @Test func ioctlsOnANonAdapterFailWithContext() throws {
        let bus = try LinuxI2CBus(path: "/dev/null")
        #expect(throws: I2CError(.selectAddress, devicePath: "/dev/null", address: 0x68, errno: .notTypewriter)) {
            try bus.selectAddress(0x68)
        }
        #expect {
            _ = try bus.readBlock(register: 0x3B, count: 14)
        } throws: { error in
            let error = error as? I2CError
            return error?.operation == .read(count: 14) && error?.register == 0x3B
        }
        try bus.close()
        try bus.close()
    }
}
