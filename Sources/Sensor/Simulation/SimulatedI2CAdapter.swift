/// A simulated I2C adapter with the boards fitted on it, each answering at its own address, and
/// nothing answering anywhere else: what `--simulate` opens.
///
/// Each ``open()`` is a handle of its own, as each `open("/dev/i2c-1")` is a file descriptor with
/// its own target address: a driver per board, each selecting its address once, never switching
/// another's.
public final class SimulatedI2CAdapter {
    /// The name errors use in place of a device node.
    public let devicePath: String
    /// The boards on the adapter, at distinct addresses.
    public let boards: [SimulatedMPU6050]

    public init(boards: [SimulatedMPU6050], devicePath: String = "simulated-i2c") {
        precondition(Set(boards.map(\.scenario.address)).count == boards.count, "two boards at one address")
        self.boards = boards
        self.devicePath = devicePath
    }

    /// The bus of a simulated session: `scenario`'s board and, when `fittingThigh`, the thigh's
    /// board of the same leg (``SimulationScenario/thighBoard()``, at 0x69), both on `clock` and
    /// on the one leg's time.
    public convenience init(
        scenario: SimulationScenario, fittingThigh: Bool, clock: any MonotonicClock,
        devicePath: String = "simulated-i2c"
    ) {
        let leg = fittingThigh ? SimulatedLegTime() : nil
        var boards = [SimulatedMPU6050(scenario: scenario, clock: clock, devicePath: devicePath, legTime: leg)]
        if fittingThigh {
            boards.append(
                SimulatedMPU6050(scenario: scenario.thighBoard(), clock: clock, devicePath: devicePath, legTime: leg))
        }
        self.init(boards: boards, devicePath: devicePath)
    }

    /// The board answering at `address`, if one is fitted there.
    public func board(at address: UInt8) -> SimulatedMPU6050? {
        boards.first { $0.scenario.address == address }
    }

    /// A new handle on the adapter, with no address selected.
    public func open() -> any I2CBus {
        SimulatedI2CHandle(adapter: self)
    }
}

/// One open handle on a ``SimulatedI2CAdapter``: transfers go to the board at its selected
/// address, and fail unacknowledged (EREMOTEIO) when none is fitted there.
private final class SimulatedI2CHandle: I2CBus {
    let adapter: SimulatedI2CAdapter
    private var selected: UInt8?

    init(adapter: SimulatedI2CAdapter) {
        self.adapter = adapter
    }

    var devicePath: String { adapter.devicePath }

    func functionality() throws(I2CError) -> I2CFunctionality {
        [.plainI2C, .readByteData, .writeByteData, .readI2CBlock]
    }

    func selectAddress(_ address: UInt8) throws(I2CError) {
        guard (0x03...0x77).contains(address) else {
            throw I2CError(.selectAddress, devicePath: devicePath, address: address, errno: .invalidArgument)
        }
        selected = address
    }

    func readByte(register: UInt8) throws(I2CError) -> UInt8 {
        try board(for: .read(count: 1), register: register).readByte(register: register)
    }

    func writeByte(_ value: UInt8, register: UInt8) throws(I2CError) {
        try board(for: .write(value: value), register: register).writeByte(value, register: register)
    }

    func readBlock(register: UInt8, into bytes: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
        try board(for: .read(count: bytes.count), register: register).readBlock(register: register, into: bytes)
    }

    /// The board at the selected address, addressed for this transfer.
    private func board(for operation: I2CError.Operation, register: UInt8) throws(I2CError) -> SimulatedMPU6050 {
        guard let address = selected, let board = adapter.board(at: address) else {
            throw I2CError(operation, devicePath: devicePath, address: selected, register: register, errno: .remoteIO)
        }
        try board.selectAddress(address)
        return board
    }
}

/// The time of one simulated leg, shared by the boards strapped to it: seconds since the first
/// board's FIFO stream started, on the host's clock. Each board samples on its own clock, so the
/// instants of their samples differ, but each reads the leg where it is at the instant it samples.
public final class SimulatedLegTime {
    /// Host time of leg time 0, once a board has started streaming.
    private(set) var origin: Double?

    public init() {}

    /// Fixes leg time 0 at `hostTime` unless a board did so before.
    func start(at hostTime: Double) {
        if origin == nil { origin = hostTime }
    }

    /// Leg time at `hostTime`, or nil before any board streams.
    func seconds(atHostTime hostTime: Double) -> Double? {
        origin.map { hostTime - $0 }
    }
}
