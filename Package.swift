// swift-tools-version:6.0
import PackageDescription

// Layers, bottom up: C system libraries; thin typed I/O wrappers (LinuxSystem, SQLite, GPIO,
// Sensor's Linux bus, ServiceSupport: notify, journal logging, signals, control socket); pure
// domain and math (Care, Fusion); the care store on SQLite (CareStorage); the fixed-rate sampling
// loop and guided measurement on the sensor (Sampling); the appliance's policy and daemon loop
// (Appliance); the command line (RomdevCLI) and the `romdev` executable on top.
let package = Package(
    name: "romdev",
    products: [
        .executable(name: "romdev", targets: ["romdev"]),
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
        .target(name: "CareStorage", dependencies: ["Care", "SQLite", "LinuxSystem"]),
        .target(name: "Sensor", dependencies: ["CI2C", "LinuxSystem"]),
        .target(name: "Fusion"),
        .target(name: "Sampling", dependencies: ["Sensor", "Fusion"]),
        .target(name: "FusionAccuracy", dependencies: ["Fusion", "Sensor", "Sampling"]),
        .target(name: "GPIO", dependencies: ["CGPIOD", "LinuxSystem"]),
        .target(name: "ServiceSupport", dependencies: ["LinuxSystem"]),
        .target(
            name: "Appliance",
            dependencies: ["Care", "CareStorage", "Fusion", "Sampling", "GPIO", "Sensor", "ServiceSupport", "LinuxSystem"]),
        .target(
            name: "RomdevCLI",
            dependencies: ["Care", "CareStorage", "Sensor", "Fusion", "Sampling", "GPIO", "LinuxSystem", "Appliance", "ServiceSupport"]),
        .executableTarget(name: "romdev", dependencies: ["RomdevCLI"]),
        .executableTarget(name: "care-store-stress", dependencies: ["CareStorage"]),
        // `make report-demo`'s flagged result, stored as the appliance stores one.
        .executableTarget(name: "report-demo", dependencies: ["Care", "CareStorage"]),
        .executableTarget(
            name: "romdev-bench",
            dependencies: ["Care", "CareStorage", "Sensor", "Fusion", "FusionAccuracy", "Sampling", "RomdevCLI"]),

        .testTarget(name: "LinuxSystemTests", dependencies: ["LinuxSystem"]),
        .testTarget(name: "CareTests", dependencies: ["Care"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        .testTarget(name: "CareStorageTests", dependencies: ["CareStorage", "Care", "SQLite", "care-store-stress"]),
        .testTarget(name: "SensorTests", dependencies: ["Sensor", "LinuxSystem"]),
        .testTarget(name: "FusionTests", dependencies: ["Fusion", "Sensor", "FusionAccuracy"]),
        .testTarget(name: "SamplingTests", dependencies: ["Sampling", "Sensor", "Fusion"]),
        .testTarget(name: "GPIOTests", dependencies: ["GPIO", "LinuxSystem"]),
        .testTarget(name: "ServiceSupportTests", dependencies: ["ServiceSupport", "LinuxSystem"]),
        .testTarget(
            name: "ApplianceTests",
            dependencies: ["Appliance", "Care", "CareStorage", "Fusion", "Sampling", "GPIO", "Sensor", "ServiceSupport"]),
        // Runs against the Linux kernel's i2c-stub and gpio-sim in a QEMU guest (make test-kernel);
        // skips everywhere else.
        .testTarget(
            name: "KernelTests", dependencies: ["Sensor", "GPIO", "LinuxSystem", "romdev"], exclude: ["Guest"]),
        .testTarget(
            name: "RomdevCLITests",
            dependencies: ["RomdevCLI", "CareStorage", "Care", "Sensor", "Fusion", "FusionAccuracy", "ServiceSupport", "SQLite"]),
    ],
    swiftLanguageModes: [.v6]
)
