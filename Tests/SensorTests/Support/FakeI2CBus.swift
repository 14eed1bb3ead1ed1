import LinuxSystem

@testable import Sensor

/// A recording I2C bus with a scripted register file and FIFO: tests assert the exact transfers
/// the driver makes and inject errnos into chosen ones.
final class FakeI2CBus: I2CBus {
    enum Transfer: Equatable, CustomStringConvertible {
        case functionality
        case select(UInt8)
        case read(UInt8, count: Int)
        case write(UInt8, value: UInt8)

        var description: String {
            switch self {
            case .functionality: "functionality"
            case .select(let a): "select \(hex(a))"
            case .read(let r, let n): "read \(hex(r)) ×\(n)"
            case .write(let r, let v): "write \(hex(r)) = \(hex(v))"
            }
        }
    }

    let devicePath = "/dev/i2c-1"
    var adapterFunctionality: I2CFunctionality = [.plainI2C, .readByteData, .writeByteData, .readI2CBlock]
    var deviceAddress: UInt8 = 0x68
    var registers: [UInt8: UInt8] = [0x75: 0x68, 0x6B: 0x40]
    /// What FIFO_R_W hands out; FIFO_COUNT reports its length.
    var fifo: [UInt8] = []
    /// Registers whose writes the device ignores (to provoke read-back mismatches).
    var ignoredWrites: Set<UInt8> = []
    /// Whether DEVICE_RESET clears itself.
    var resetCompletes = true
    private(set) var trace: [Transfer] = []
    private var address: UInt8?
    private var failures: [(matches: (Transfer) -> Bool, errno: Errno, remaining: Int)] = []

    /// The next `times` transfers matching `matches` fail with `errno`.
    func fail(_ errno: Errno, times: Int = 1, when matches: @escaping (Transfer) -> Bool) {
        failures.append((matches, errno, times))
    }

    func clearTrace() {
        trace = []
    }

    func functionality() throws(I2CError) -> I2CFunctionality {
        try record(.functionality, .queryFunctionality, register: nil)
        return adapterFunctionality
    }

    func selectAddress(_ address: UInt8) throws(I2CError) {
        try record(.select(address), .selectAddress, register: nil)
        self.address = address
    }

    func readByte(register: UInt8) throws(I2CError) -> UInt8 {
        try record(.read(register, count: 1), .read(count: 1), register: register)
        return value(of: register)
    }

    func writeByte(_ value: UInt8, register: UInt8) throws(I2CError) {
        try record(.write(register, value: value), .write(value: value), register: register)
        guard !ignoredWrites.contains(register) else { return }
        if register == 0x6B, value & 0x80 != 0 {
            registers = [0x75: registers[0x75] ?? 0x68, 0x6B: resetCompletes ? 0x40 : 0xC0]
        } else {
            registers[register] = value
        }
    }

    func readBlock(register: UInt8, into bytes: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
        let count = bytes.count
        try record(.read(register, count: count), .read(count: count), register: register)
        var values: [UInt8]
        if register == 0x74 {
            values = Array(fifo.prefix(count))
            fifo.removeFirst(values.count)
            values += [UInt8](repeating: values.last ?? 0, count: count - values.count)
        } else {
            values = (0..<count).map { value(of: register + UInt8($0)) }
        }
        _ = bytes.initialize(from: values)
    }

    private func value(of register: UInt8) -> UInt8 {
        switch register {
        case 0x72: UInt8(fifo.count >> 8)
        case 0x73: UInt8(fifo.count & 0xFF)
        default: registers[register] ?? 0
        }
    }

    private func record(_ transfer: Transfer, _ operation: I2CError.Operation, register: UInt8?)
        throws(I2CError)
    {
        trace.append(transfer)
        let failure = I2CError(operation, devicePath: devicePath, address: address, register: register, errno: .ioError)
        if let i = failures.firstIndex(where: { $0.remaining > 0 && $0.matches(transfer) }) {
            failures[i].remaining -= 1
            throw I2CError(
                operation, devicePath: devicePath, address: address, register: register, errno: failures[i].errno)
        }
        if register != nil, address != deviceAddress {
            var nack = failure
            nack.errno = .remoteIO
            throw nack
        }
    }
}

/// 12-byte FIFO records (accel x/y/z, gyro x/y/z, big-endian) from raw words.
func fifoRecord(_ words: [Int16]) -> [UInt8] {
    words.flatMap { word -> [UInt8] in
        let bits = UInt16(bitPattern: word)
        return [UInt8(bits >> 8), UInt8(bits & 0xFF)]
    }
}
