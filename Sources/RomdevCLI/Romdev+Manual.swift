import Appliance
import CareStorage
import ServiceSupport

/// The sections of romdev(8) that the command table cannot supply. The rest of the page (every
/// command, its options, the exit statuses) is generated from ``Romdev/commands``.
extension Romdev {
    static let manual = ManualPage(
        section: 8, sectionName: "System Administration",
        environment: [
            .init("ROMDEV_STORE", "The care store file when --store is not given."),
            .init(
                "XDG_DATA_HOME",
                "Where the care store goes when neither --store nor ROMDEV_STORE is given and /var/lib/romdev is not writable: XDG_DATA_HOME/romdev/care.sqlite (default ~/.local/share)."
            ),
            .init("HOME", "Used for the default of XDG_DATA_HOME."),
            .init(
                "NOTIFY_SOCKET",
                "Set by systemd for a Type=notify service: romdev daemon sends READY=1, STATUS=, WATCHDOG=1 and STOPPING=1 to it. Unset, nothing is sent."
            ),
            .init(
                "ROMDEV_RUNTIME_DIR",
                "The directory of the daemon's control socket, for the daemon and for the commands that reach it (romdev measure, romdev export --to); default \(ControlSocketLocation.defaultDirectory)."
            ),
            .init(
                "WATCHDOG_USEC, WATCHDOG_PID",
                "Set by systemd when the unit has WatchdogSec=: romdev daemon then sends WATCHDOG=1 from its working loop."
            ),
        ],
        files: [
            .init(
                ApplianceConfiguration.defaultPath,
                "The configuration of romdev daemon (--config overrides): sensor bus and address, the thigh sensor's address (thigh_address), GPIO lines, sample rate, reminder times, quiet hours, time zone. 'romdev daemon --print-config' prints the default file with every key explained; 'make install' and the package install it once and never overwrite it."
            ),
            .init(
                "\(StorePath.systemDirectory)/\(StorePath.fileName)",
                "The care store, with its -wal and -shm files beside it, in the systemd unit's state directory: owned by the romdev user and group, mode 0770, so members of group romdev can run the care commands on it."
            ),
            .init(
                "\(StorePath.systemDirectory)/\(CalibrationFile.fileName)",
                "The sensor's calibration, written by romdev calibrate and read by the measuring commands (--calibration overrides); always next to the care store in use."
            ),
            .init(
                "\(ControlSocketLocation.defaultDirectory)/\(ControlSocketLocation.fileName)",
                "The control socket of the running daemon, which alone holds the GPIO lines and the sensor: romdev measure and the USB export reach it here. Its directory is the unit's runtime directory (mode 0750), open to group romdev only."
            ),
            .init(
                "/usr/lib/systemd/system/romdev.service",
                "The daemon's unit: User=romdev, groups i2c and gpio, Type=notify with a watchdog, sandboxed. This and the files below are under /usr/local/lib instead after 'make install' with PREFIX=/usr/local."
            ),
            .init(
                "/usr/lib/udev/rules.d/60-romdev.rules",
                "Gives I2C device nodes to group i2c, GPIO chips and sysfs PWM channels to group gpio."),
            .init("/usr/lib/sysusers.d/romdev.conf", "Creates the romdev user and the i2c and gpio groups."),
            .init(
                "/usr/lib/tmpfiles.d/romdev.conf",
                "Creates /var/lib/romdev at installation, before the daemon first starts."),
        ],
        examples: [
            .init(
                "Set up the care plan for a right knee starting today, as the romdev user:",
                [
                    "sudo -u romdev romdev init --limb right --tz Europe/Berlin",
                    "sudo -u romdev romdev onboard --consent-by 'Jane Doe'",
                ]),
            .init(
                "Check the sensor wiring before starting the daemon, and the configuration after editing it:",
                [
                    "romdev doctor",
                    "romdev daemon --check-config",
                ]),
            .init("Measure the knee now (through the daemon when it runs):", ["romdev measure"]),
            .init(
                "Look at today's care feed and export every outcome:",
                [
                    "romdev today",
                    "romdev export --format csv --output outcomes.csv",
                ]),
            .init(
                "Start the appliance and follow its log:",
                [
                    "systemctl enable --now romdev.service",
                    "journalctl -u romdev -f",
                ]),
        ],
        seeAlso: [
            "systemctl(1)", "journalctl(1)", "systemd.exec(5)", "sysusers.d(5)", "udev(7)", "i2cdetect(8)",
            "gpioinfo(1)",
        ])
}
