import Foundation
import XCTest

/// The kernel test guest (`Tests/KernelTests/Guest/kernel-guest`, run by `make test-kernel`): a
/// Debian kernel with i2c-stub and gpio-sim loaded, which sets `ROMDEV_KERNEL_GUEST=1`.
///
/// Every test of this target needs it, and skips elsewhere, so `swift test` passes on any machine.
enum KernelGuest {
    static var isRunning: Bool {
        ProcessInfo.processInfo.environment["ROMDEV_KERNEL_GUEST"] == "1"
    }

    /// Skips the calling test outside the guest.
    static func require() throws {
        guard isRunning else { throw XCTSkip("needs the kernel test guest (make test-kernel)") }
    }
}
