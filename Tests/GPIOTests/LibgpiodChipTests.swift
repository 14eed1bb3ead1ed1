import GPIO
import LinuxSystem
import Testing

@Suite("libgpiod chip")
struct LibgpiodChipTests {
    @Test func missingChipGivesATypedErrorNamingThePath() {
        let path = "/dev/gpiochip-romdev-missing"
        #expect(throws: GPIOError.openChip(path: path, errno: .noSuchFileOrDirectory)) {
            try LibgpiodChip(path: path)
        }
        let message = GPIOError.openChip(path: path, errno: .noSuchFileOrDirectory).description
        #expect(message == "cannot open GPIO chip \(path): No such file or directory (ENOENT)")
    }

    @Test func deviceThatIsNoGPIOChipIsRefusedWithThePath() {
        do {
            _ = try LibgpiodChip(path: "/dev/null")
            Issue.record("/dev/null opened as a GPIO chip")
        } catch {
            guard case .openChip(let path, let errno) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == "/dev/null")
            #expect(errno != .noSuchFileOrDirectory)
        }
    }

    @Test func libraryVersionNamesTheAPI() {
        let version = LibgpiodChip.libraryVersion
        #expect(version.hasPrefix("libgpiod "))
        #expect(version.hasSuffix("(v1 API)") || version.hasSuffix("(v2 API)"))
    }

    @Test func lineErrorNamesLineChipAndErrno() {
        let id = GPIOLineID(chip: "/dev/gpiochip0", offset: 17, name: "GPIO17")
        #expect(
            GPIOError.line(.requestInput, id, errno: .resourceBusy).description
                == "cannot request GPIO17 (line 17 of /dev/gpiochip0) as input: Device or resource busy (EBUSY)")
        #expect(
            GPIOError.line(.setValue, GPIOLineID(chip: "/dev/gpiochip4", offset: 27), errno: .ioError).description
                == "cannot set the level of line 27 of /dev/gpiochip4: Input/output error (EIO)")
    }
}
