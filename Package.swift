// swift-tools-version:6.0
import PackageDescription

// Layers, bottom up; no module imports one above it:
// - C system libraries (CSQLite, CI2C, CGPIOD).
// - LinuxSystem: Errno, file paths, the monotonic clock, atomic file writes.
// - Typed I/O wrappers, each with what belongs to its device: SQLite; Sensor (the MPU-6050
//   driver on the Linux I2C bus, and the ~1.4k-line register-level simulator with knee motion
//   and sensor error models that --simulate, the tests and the accuracy trials run); GPIO (the
//   button, LED and buzzer lines, plus the button debouncing, the cue patterns and a simulated
//   chip); ServiceSupport (systemd notify, journal logging, signals, the control socket, and the
//   JSON value its replies carry and the command line prints).
// - Pure domain and math, no I/O: Care (schedules, events, outcomes), Fusion (orientation,
//   calibration, the knee-angle session); FusionAccuracy (accuracy trials on the simulator).
// - CareStorage: the care store on SQLite, and the rules of recording a measurement in it (which
//   event, onboarding, unscheduled ones, the outcome values).
// - Sampling: the fixed-rate sampling loop and the guided measurement and calibration on it.
// - Appliance: its configuration file, reminder and quiet-hour policy (pure), and the daemon.
// - RomdevCLI: the command line; the `romdev` executable on top.
// TestSupport holds what several test targets share; no product links it.
let package = Package(
    name: "romdev",
    products: [
        .executable(name: "romdev", targets: ["romdev"])
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite",
            pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CI2C", path: "Sources/CI2C",
            providers: [.apt(["libi2c-dev"])]),
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        .systemLibrary(
            name: "CGPIOD", path: "Sources/CGPIOD",
            pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),

        .target(name: "LinuxSystem", dependencies: ["CLinux"]),
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "Care"),
        .target(name: "CareStorage", dependencies: ["Care", "Fusion", "SQLite", "LinuxSystem"]),
        .target(name: "Sensor", dependencies: ["CI2C", "LinuxSystem"]),
        .target(name: "Fusion"),
        .target(name: "Sampling", dependencies: ["Sensor", "Fusion"]),
        .target(name: "FusionAccuracy", dependencies: ["Fusion", "Sensor", "Sampling"]),
        .target(name: "GPIO", dependencies: ["CGPIOD", "LinuxSystem"]),
        .target(name: "ServiceSupport", dependencies: ["LinuxSystem"]),
        .target(
            name: "Appliance",
            dependencies: [
                "Care", "CareStorage", "Fusion", "Sampling", "GPIO", "Sensor", "ServiceSupport", "LinuxSystem",
            ]),
        .target(
            name: "RomdevCLI",
            dependencies: [
                "Care", "CareStorage", "Sensor", "Fusion", "Sampling", "GPIO", "LinuxSystem", "Appliance",
                "ServiceSupport",
            ]),
        .executableTarget(name: "romdev", dependencies: ["RomdevCLI"]),
        .executableTarget(name: "care-store-stress", dependencies: ["CareStorage"]),
        // `make report-demo`'s flagged result, stored as the appliance stores one.
        .executableTarget(name: "report-demo", dependencies: ["Care", "CareStorage", "Fusion"]),
        .executableTarget(
            name: "romdev-bench",
            dependencies: ["Care", "CareStorage", "Sensor", "Fusion", "FusionAccuracy", "Sampling", "RomdevCLI"]),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "LinuxSystemTests", dependencies: ["LinuxSystem", "TestSupport"]),
        // Sensor for its seeded generator, SplitMix64.
        .testTarget(name: "CareTests", dependencies: ["Care", "Sensor"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
        .testTarget(
            name: "CareStorageTests",
            dependencies: ["CareStorage", "Care", "Fusion", "SQLite", "care-store-stress", "TestSupport"]),
        .testTarget(name: "SensorTests", dependencies: ["Sensor", "LinuxSystem"]),
        .testTarget(name: "FusionTests", dependencies: ["Fusion", "Sensor", "FusionAccuracy"]),
        .testTarget(name: "SamplingTests", dependencies: ["Sampling", "Sensor", "Fusion"]),
        .testTarget(name: "GPIOTests", dependencies: ["GPIO", "LinuxSystem", "Sensor", "TestSupport"]),
        .testTarget(name: "ServiceSupportTests", dependencies: ["ServiceSupport", "LinuxSystem", "TestSupport"]),
        .testTarget(
            name: "ApplianceTests",
            dependencies: [
                "Appliance", "Care", "CareStorage", "Fusion", "Sampling", "GPIO", "Sensor", "ServiceSupport",
                "TestSupport",
            ]),
        // Runs against the Linux kernel's i2c-stub and gpio-sim in a QEMU guest (make test-kernel);
        // skips everywhere else.
        .testTarget(
            name: "KernelTests", dependencies: ["Sensor", "GPIO", "LinuxSystem", "romdev", "TestSupport"],
            exclude: ["Guest"]),
        .testTarget(
            name: "RomdevCLITests",
            dependencies: [
                "RomdevCLI", "CareStorage", "Care", "Sensor", "Fusion", "FusionAccuracy", "ServiceSupport", "SQLite",
                "romdev", "TestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
