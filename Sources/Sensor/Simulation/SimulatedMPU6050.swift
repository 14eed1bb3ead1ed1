import LinuxSystem

/// A register-level MPU-6050-family sensor behind `I2CBus`: what `--simulate` and the tests talk to.
///
/// It keeps a register file with the chip's reset values (SLEEP set), answers WHO_AM_I for its
/// part, samples on its own clock at the rate SMPLRT_DIV and CONFIG select once woken, scales to
/// the configured full ranges (saturating like the chip), fills a FIFO that drops its oldest
/// bytes and sets FIFO_OFLOW when full, and reads FIFO_R_W as the chip does (the last byte again
/// when empty). Time is the injected clock's, so tests run it faster than real time. Motion,
/// sensor errors and noise come from a `SimulationScenario` whose time starts when the FIFO
/// stream starts (before that, when sampling started) and advances with the sample clock, so the
/// same scenario and seed stream the same samples however the host's timing varies; two boards on
/// one leg read it at the leg's time instead (``SimulatedLegTime``). Faults are injected with
/// `inject(_:)`.
public final class SimulatedMPU6050: I2CBus {
    /// The name errors use in place of a device node.
    public let devicePath: String
    /// Motion, errors, part, address and seed.
    public let scenario: SimulationScenario
    /// The time the sensor samples by.
    public let clock: any MonotonicClock
    /// Traffic so far (successful transfers).
    public private(set) var statistics = BusStatistics()
    /// The leg this board shares with another (the shank's and the thigh's boards), or nil for a
    /// board on its own.
    let legTime: SimulatedLegTime?

    let startTime: Double
    var registers = [UInt8](repeating: 0, count: 128)
    var fifo = ByteQueue()
    var selectedAddress: UInt8?
    var faults: [SimulatedFault] = []
    var fifoStuck = false
    var interruptStatus: UInt8 = 0
    /// Latest sample as the data registers hold it: accel x/y/z, temperature, gyro x/y/z.
    var latest = [Int16](repeating: 0, count: 7)
    /// Sampling runs while awake: sample n is taken at `samplingOrigin + n × period`.
    var samplingOrigin: Double?
    var samplesTaken = 0
    /// Sample number (since `samplingOrigin`) of the first record the FIFO kept: driver index 0,
    /// and time 0 of the scenario.
    var fifoOriginSample: Int?

    /// - Parameters:
    ///   - clock: The simulated time source; `ManualClock` for faster than real time.
    ///   - devicePath: The name errors use.
    ///   - legTime: Shared with the other board on the same leg, so that both read the leg at the
    ///     host instant they sample; nil for a board on its own, whose scenario time is its own
    ///     stream's.
    public init(
        scenario: SimulationScenario, clock: any MonotonicClock, devicePath: String = "simulated-i2c",
        legTime: SimulatedLegTime? = nil
    ) {
        self.scenario = scenario
        self.clock = clock
        self.devicePath = devicePath
        self.legTime = legTime
        startTime = clock.now
        resetRegisters()
    }

    /// Schedules a fault.
    public func inject(_ fault: SimulatedFault) {
        faults.append(fault)
    }

    /// Seconds on the clock since the simulator was created; faults are scheduled on this time.
    public var elapsedSeconds: Double {
        clock.now - startTime
    }

    /// Ground truth for the sample the driver delivers with `index` in FIFO mode: the shank's
    /// inclination (degrees from vertical) at the instant that sample was taken, or nil before
    /// the FIFO was started.
    public func truthInclinationDegrees(forSampleIndex index: Int) -> Double? {
        truthSeconds(forSampleIndex: index).map { scenario.motion.state(atSeconds: $0).inclinationDegrees }
    }

    /// The instant (seconds of the scenario's motion) at which the sample the driver delivers
    /// with `index` in FIFO mode was taken, or nil before the FIFO was started.
    public func truthSeconds(forSampleIndex index: Int) -> Double? {
        guard samplingOrigin != nil, fifoOriginSample != nil else { return nil }
        return Double(index + 1) * samplePeriodSeconds
    }

    // MARK: - I2CBus

    public func functionality() throws(I2CError) -> I2CFunctionality {
        [.plainI2C, .readByteData, .writeByteData, .readI2CBlock]
    }

    public func selectAddress(_ address: UInt8) throws(I2CError) {
        guard (0x03...0x77).contains(address) else {
            throw I2CError(.selectAddress, devicePath: devicePath, address: address, errno: .invalidArgument)
        }
        selectedAddress = address
    }

    public func readByte(register: UInt8) throws(I2CError) -> UInt8 {
        try transfer(.read(count: 1), register: register)
        statistics.readTransactions += 1
        statistics.bytesRead += 1
        statistics.sclClocks += 27 + 9
        return readRegister(register)
    }

    public func writeByte(_ value: UInt8, register: UInt8) throws(I2CError) {
        try transfer(.write(value: value), register: register)
        statistics.writeTransactions += 1
        statistics.bytesWritten += 1
        statistics.sclClocks += 27
        writeRegister(register, value)
    }

    public func readBlock(register: UInt8, into bytes: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
        let count = bytes.count
        precondition((1...I2CBlock.maximumLength).contains(count), "I2C block reads are 1...32 bytes")
        try transfer(.read(count: count), register: register)
        statistics.readTransactions += 1
        statistics.bytesRead += count
        statistics.sclClocks += 27 + 9 * count
        var current = register
        for i in 0..<count {
            bytes[i] = readRegister(current)
            // FIFO_R_W does not advance the register pointer; everything else does.
            if current != MPU6050Register.fifoReadWrite { current = (current &+ 1) & 0x7F }
        }
    }

    /// Catches the device up to the present, then fails the transfer if it is not acknowledged or
    /// a fault is due.
    private func transfer(_ operation: I2CError.Operation, register: UInt8) throws(I2CError) {
        let now = elapsedSeconds
        func failure(_ errno: Errno) -> I2CError {
            I2CError(operation, devicePath: devicePath, address: selectedAddress, register: register, errno: errno)
        }
        for i in faults.indices where faults[i].afterSeconds <= now {
            switch faults[i].kind {
            case .deviceGone:
                throw failure(.remoteIO)
            case .stuckFIFO:
                fifoStuck = true
            case .nack, .ioError:
                guard faults[i].transfers > 0 else { continue }
                faults[i].transfers -= 1
                throw failure(faults[i].kind == .nack ? .remoteIO : .ioError)
            }
        }
        guard let address = selectedAddress, address == scenario.address else {
            throw failure(.remoteIO)
        }
        advance(to: now)
    }
}

/// A byte FIFO with cheap removal from the front.
struct ByteQueue {
    private var storage: [UInt8] = []
    private var head = 0
    /// The last byte handed out: what FIFO_R_W reads again when empty.
    private(set) var lastRead: UInt8 = 0

    var count: Int {
        storage.count - head
    }

    /// Appends a register word as the chip stores it: high byte first.
    mutating func append(bigEndian word: Int16) {
        let bits = UInt16(bitPattern: word)
        storage.append(UInt8(bits >> 8))
        storage.append(UInt8(bits & 0xFF))
    }

    mutating func dropFirst(_ n: Int) {
        head += min(n, count)
        if head > 4096 {
            storage.removeFirst(head)
            head = 0
        }
    }

    mutating func pop() -> UInt8 {
        guard count > 0 else { return lastRead }
        lastRead = storage[head]
        dropFirst(1)
        return lastRead
    }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }
}
