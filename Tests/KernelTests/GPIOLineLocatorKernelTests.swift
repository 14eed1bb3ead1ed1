import GPIO
import XCTest

/// Finding lines on the kernel's GPIO character devices by name and by chip label, as on a board
/// whose chip numbers are not known in advance.
final class GPIOLineLocatorKernelTests: XCTestCase {
    private var simulator: GPIOSimulator!

    override func setUpWithError() throws {
        try KernelGuest.require()
        simulator = try HeaderChip.make()
    }

    override func tearDown() {
        simulator?.remove()
    }

    func testLinesAreFoundByNameOnWhicheverChipHasThem() throws {
        let locator = GPIOLineLocator()
        XCTAssertTrue(try locator.chipPaths().contains(simulator.chipPath))
        for (name, offset) in [
            ("GPIO17", HeaderChip.button), ("GPIO22", HeaderChip.buzzer), ("GPIO27", HeaderChip.led),
        ] {
            let location = try locator.locate(.name(name))
            XCTAssertEqual(location.chip.info.path, simulator.chipPath, name)
            XCTAssertEqual(location.offset, UInt32(offset), name)
        }
    }

    func testChipIsFoundByLabel() throws {
        let locator = GPIOLineLocator()
        let chip = try locator.chip(.label(HeaderChip.label))
        XCTAssertEqual(chip.info.path, simulator.chipPath)
        XCTAssertEqual(chip.info.label, HeaderChip.label)
        XCTAssertEqual(chip.info.lineCount, 28)
        XCTAssertEqual(chip.info.name, String(simulator.chipPath.dropFirst("/dev/".count)))

        let byOffset = try locator.locate(.offset(UInt32(HeaderChip.led), chip: .label(HeaderChip.label)))
        XCTAssertEqual(byOffset.chip.info.path, simulator.chipPath)
        XCTAssertEqual(byOffset.offset, UInt32(HeaderChip.led))
        let byNameOnChip = try locator.locate(.name("GPIO22"), on: .label(HeaderChip.label))
        XCTAssertEqual(byNameOnChip.offset, UInt32(HeaderChip.buzzer))
    }

    func testMissingNamesLabelsAndOffsetsAreTypedErrors() throws {
        let locator = GPIOLineLocator()
        let searched = try locator.chipPaths()
        XCTAssertThrowsError(try locator.locate(.name("GPIO5"))) { error in
            XCTAssertEqual(error as? GPIOError, .lineNotFound(name: "GPIO5", searched: searched))
        }
        XCTAssertThrowsError(try locator.chip(.label("pinctrl-bcm2711"))) { error in
            XCTAssertEqual(error as? GPIOError, .chipNotFound(label: "pinctrl-bcm2711", searched: searched))
        }
        XCTAssertThrowsError(try locator.locate(.offset(28, chip: .label(HeaderChip.label)))) { error in
            XCTAssertEqual(
                error as? GPIOError, .offsetOutOfRange(chip: simulator.chipPath, offset: 28, lineCount: 28))
        }
    }

    func testSecondRequestOfARequestedLineIsBusy() throws {
        let chip = try LibgpiodChip(path: simulator.chipPath)
        let offset = try XCTUnwrap(try chip.lineOffset(named: "GPIO27"))
        let led = try chip.requestOutput(offset: offset, consumer: "romdev-test", initialValue: false)
        defer { led.release() }
        let other = try LibgpiodChip(path: simulator.chipPath)
        XCTAssertThrowsError(try other.requestOutput(offset: offset, consumer: "romdev-test", initialValue: false)) {
            error in
            XCTAssertEqual(
                error as? GPIOError,
                .line(.requestOutput, GPIOLineID(chip: simulator.chipPath, offset: offset), errno: .resourceBusy))
        }
    }
}
