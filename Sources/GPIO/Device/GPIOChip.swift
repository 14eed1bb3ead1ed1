/// What a chip says about itself: the facts used to find the right one among `/dev/gpiochip*`.
public struct GPIOChipInfo: Equatable, Sendable {
    /// The device path the chip was opened from, e.g. `/dev/gpiochip0`.
    public let path: String
    /// The kernel's name, e.g. `gpiochip0`.
    public let name: String
    /// The driver's label, e.g. `pinctrl-bcm2711` (Pi 4) or `pinctrl-rp1` (Pi 5).
    public let label: String
    /// The number of lines; valid offsets are `0..<lineCount`.
    public let lineCount: UInt32

    public init(path: String, name: String, label: String, lineCount: UInt32) {
        self.path = path
        self.name = name
        self.label = label
        self.lineCount = lineCount
    }
}

/// A GPIO chip: the seam between the appliance and the GPIO character device.
///
/// `LibgpiodChip` talks to the kernel through libgpiod; `SimulatedGPIO` plays scripted button
/// presses and records outputs for `--simulate` and tests. Lines stay requested until released
/// (or until their object goes away); a second requester of the same line gets `EBUSY`.
public protocol GPIOChip: AnyObject {
    var info: GPIOChipInfo { get }

    /// The offset of the line the device tree names `name` (e.g. `GPIO17`), or `nil` if this chip
    /// has no such line.
    func lineOffset(named name: String) throws(GPIOError) -> UInt32?

    /// Requests a line as an input with the internal pull-up and edge events on both edges.
    func requestInput(offset: UInt32, consumer: String) throws(GPIOError) -> any GPIOInputLine

    /// Requests a line as a push-pull output, driven to `initialValue` (`true` = high) at once.
    func requestOutput(offset: UInt32, consumer: String, initialValue: Bool) throws(GPIOError)
        -> any GPIOOutputLine
}

/// A requested input line with edge events (the button).
public protocol GPIOInputLine: AnyObject {
    var id: GPIOLineID { get }

    /// The physical level now: `true` for high.
    func value() throws(GPIOError) -> Bool

    /// Readable while an edge is pending, for `poll(2)` together with other sources; owned by the
    /// line (never close it).
    func eventFileDescriptor() throws(GPIOError) -> CInt

    /// The edges pending now, oldest first, without waiting.
    func readEdges() throws(GPIOError) -> [GPIOEdge]

    /// Waits up to `timeoutNanoseconds` for the next edge and returns it, or `nil` when the time
    /// passed without one (or a signal interrupted the wait, so the caller can check for stop).
    /// Edges are returned in order, none is dropped while the kernel's queue has room.
    func waitForEdge(timeoutNanoseconds: UInt64) throws(GPIOError) -> GPIOEdge?

    /// Gives the line back to the kernel. Idempotent; later calls on the line fail.
    func release()
}

/// A requested output line (the LED, an active buzzer's transistor).
public protocol GPIOOutputLine: AnyObject {
    var id: GPIOLineID { get }

    /// Drives the line: `true` for high.
    func setValue(_ high: Bool) throws(GPIOError)

    /// Gives the line back to the kernel, after which it "may revert to its default state" (the
    /// kernel's words), so drive it to its safe level first. Idempotent.
    func release()
}
