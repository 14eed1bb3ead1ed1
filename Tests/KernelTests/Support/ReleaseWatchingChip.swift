import GPIO

/// A libgpiod chip whose output lines call `onRelease` just before they go back to the kernel:
/// the last moment the level an output drives can be seen, since a released gpio-sim line shows
/// its pull instead.
final class ReleaseWatchingChip: GPIOChip {
    private let chip: LibgpiodChip
    private let onRelease: (GPIOLineID) -> Void

    init(path: String, onRelease: @escaping (GPIOLineID) -> Void) throws(GPIOError) {
        chip = try LibgpiodChip(path: path)
        self.onRelease = onRelease
    }

    var info: GPIOChipInfo { chip.info }

    func lineOffset(named name: String) throws(GPIOError) -> UInt32? {
        try chip.lineOffset(named: name)
    }

    func requestInput(offset: UInt32, consumer: String) throws(GPIOError) -> any GPIOInputLine {
        try chip.requestInput(offset: offset, consumer: consumer)
    }

    func requestOutput(offset: UInt32, consumer: String, initialValue: Bool) throws(GPIOError)
        -> any GPIOOutputLine
    {
        WatchedOutputLine(
            line: try chip.requestOutput(offset: offset, consumer: consumer, initialValue: initialValue),
            onRelease: onRelease)
    }
}

private final class WatchedOutputLine: GPIOOutputLine {
    private let line: any GPIOOutputLine
    private let onRelease: (GPIOLineID) -> Void
    private var released = false

    init(line: any GPIOOutputLine, onRelease: @escaping (GPIOLineID) -> Void) {
        self.line = line
        self.onRelease = onRelease
    }

    var id: GPIOLineID { line.id }

    func setValue(_ high: Bool) throws(GPIOError) {
        try line.setValue(high)
    }

    func release() {
        if !released {
            released = true
            onRelease(line.id)
        }
        line.release()
    }
}
