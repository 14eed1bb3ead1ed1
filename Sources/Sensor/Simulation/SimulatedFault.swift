/// A failure the simulator can be told to produce, at a time on its clock.
public struct SimulatedFault: Equatable, Sendable {
    /// What goes wrong.
    public enum Kind: Equatable, Sendable {
        /// The device does not acknowledge: transfers fail with EREMOTEIO (as i2c-bcm2835 reports).
        case nack
        /// The adapter reports a bus error: transfers fail with EIO.
        case ioError
        /// The board is unplugged: every transfer from then on fails with EREMOTEIO.
        case deviceGone
        /// The FIFO stops filling while the data registers keep updating.
        case stuckFIFO
    }

    /// What goes wrong.
    public var kind: Kind
    /// Simulated seconds since the simulator was created.
    public var afterSeconds: Double
    /// For `nack` and `ioError`: how many transfers fail.
    public var transfers: Int

    public init(kind: Kind, afterSeconds: Double, transfers: Int = 1) {
        self.kind = kind
        self.afterSeconds = afterSeconds
        self.transfers = transfers
    }

    /// `transfers` transfers from `afterSeconds` on are not acknowledged (EREMOTEIO).
    public static func nack(afterSeconds: Double = 0, transfers: Int = 1) -> SimulatedFault {
        SimulatedFault(kind: .nack, afterSeconds: afterSeconds, transfers: transfers)
    }

    /// `transfers` transfers from `afterSeconds` on fail with EIO.
    public static func ioError(afterSeconds: Double = 0, transfers: Int = 1) -> SimulatedFault {
        SimulatedFault(kind: .ioError, afterSeconds: afterSeconds, transfers: transfers)
    }

    /// From `afterSeconds` on, nothing answers (EREMOTEIO).
    public static func deviceGone(afterSeconds: Double) -> SimulatedFault {
        SimulatedFault(kind: .deviceGone, afterSeconds: afterSeconds)
    }

    /// From `afterSeconds` on, the FIFO stops filling.
    public static func stuckFIFO(afterSeconds: Double) -> SimulatedFault {
        SimulatedFault(kind: .stuckFIFO, afterSeconds: afterSeconds)
    }
}

/// Traffic on the simulated bus since it was created: successful transfers only.
public struct BusStatistics: Equatable, Sendable {
    /// Register reads (single and block).
    public var readTransactions = 0
    /// Register writes.
    public var writeTransactions = 0
    /// Data bytes read (addresses and register numbers excluded).
    public var bytesRead = 0
    /// Data bytes written (addresses and register numbers excluded).
    public var bytesWritten = 0
    /// SCL clocks: a combined read of N bytes from a register is 27 + 9N (address+W, register,
    /// repeated start, address+R, data), a register write 27; start/stop set-up times excluded.
    public var sclClocks = 0

    public init() {}

    /// Reads plus writes.
    public var transactions: Int {
        readTransactions + writeTransactions
    }
}
