import GPIO
import LinuxSystem
import TestSupport
import Testing

/// A device directory with `gpiochip*` placeholders, each opened as a simulated chip with its label.
private func locator(_ directory: TemporaryDirectory, labels: [String: String]) throws -> GPIOLineLocator {
    for name in labels.keys {
        try directory.write("", to: name)
    }
    try directory.write("", to: "gpiochip-not-a-chip")
    try directory.write("", to: "i2c-1")
    let clock = ManualGPIOClock()
    return GPIOLineLocator(directory: directory.path) { path throws(GPIOError) in
        let name = String(path.split(separator: "/").last ?? "")
        guard let label = labels[name] else { throw .openChip(path: path, errno: .noSuchFileOrDirectory) }
        let lineCount: UInt32 = label == "pinctrl-rp1" || label == "pinctrl-bcm2711" ? 54 : 8
        return SimulatedGPIO(clock: clock, label: label, path: path, lineCount: lineCount)
    }
}

@Suite("Line locator")
struct GPIOLineLocatorTests {
    @Test func listsChipsInNumericOrderAndNothingElse() throws {
        let directory = try TemporaryDirectory()
        let found = try locator(directory, labels: ["gpiochip10": "a", "gpiochip2": "b", "gpiochip0": "c"])
        #expect(try found.chipPaths() == ["gpiochip0", "gpiochip2", "gpiochip10"].map { directory.path($0) })
    }

    @Test func findsThePi5HeaderChipByLabelWhateverItsNumber() throws {
        let directory = try TemporaryDirectory()
        let found = try locator(
            directory, labels: ["gpiochip0": "gpio-brcmstb@107d508500", "gpiochip4": "pinctrl-rp1"])
        #expect(try found.chip(.label("pinctrl-rp1")).info.path == directory.path("gpiochip4"))
    }

    @Test func findsALineByNameOnWhicheverChipHasIt() throws {
        let directory = try TemporaryDirectory()
        let found = try locator(directory, labels: ["gpiochip0": "small", "gpiochip4": "pinctrl-rp1"])
        let location = try found.locate(.name("GPIO17"))
        #expect(location.chip.info.label == "pinctrl-rp1")
        #expect(location.offset == 17)
    }

    @Test func chipOverrideRestrictsTheNameSearch() throws {
        let directory = try TemporaryDirectory()
        let found = try locator(directory, labels: ["gpiochip0": "small", "gpiochip4": "pinctrl-rp1"])
        #expect(throws: GPIOError.lineNotFound(name: "GPIO17", searched: [directory.path("gpiochip0")])) {
            try found.locate(.name("GPIO17"), on: .label("small"))
        }
        #expect(try found.locate(.name("GPIO5"), on: .path(directory.path("gpiochip0"))).offset == 5)
    }

    @Test func offsetNeedsAChipAndMustExistOnIt() throws {
        let directory = try TemporaryDirectory()
        let found = try locator(directory, labels: ["gpiochip0": "pinctrl-bcm2711"])
        #expect(try found.locate(.offset(27, chip: .label("pinctrl-bcm2711"))).offset == 27)
        #expect(throws: GPIOError.offsetOutOfRange(chip: directory.path("gpiochip0"), offset: 60, lineCount: 54)) {
            try found.locate(.offset(60, chip: .label("pinctrl-bcm2711")))
        }
    }

    @Test func missingLabelAndNameListTheChipsSearched() throws {
        let directory = try TemporaryDirectory()
        let found = try locator(directory, labels: ["gpiochip0": "pinctrl-bcm2711"])
        let searched = [directory.path("gpiochip0")]
        #expect(throws: GPIOError.chipNotFound(label: "pinctrl-rp1", searched: searched)) {
            try found.chip(.label("pinctrl-rp1"))
        }
        #expect(throws: GPIOError.lineNotFound(name: "LED", searched: searched)) {
            try found.locate(.name("LED"))
        }
        #expect(
            GPIOError.lineNotFound(name: "LED", searched: []).description == "no GPIO line named 'LED' on no GPIO chips"
        )
    }

    @Test func unreadableDirectoryAndUnopenableChipAreReportedNotSkipped() throws {
        let missing = GPIOLineLocator(directory: "/nonexistent-romdev-dev")
        #expect(throws: GPIOError.scanDevices(directory: "/nonexistent-romdev-dev", errno: .noSuchFileOrDirectory)) {
            try missing.chipPaths()
        }
        let directory = try TemporaryDirectory()
        try directory.write("", to: "gpiochip0")
        // A regular file is no GPIO chip: libgpiod refuses it, and the search stops there.
        let real = GPIOLineLocator(directory: directory.path)
        #expect {
            try real.locate(.name("GPIO17"))
        } throws: { error in
            guard case .openChip(let path, _) = error as? GPIOError else { return false }
            return path == directory.path("gpiochip0")
        }
    }
}
