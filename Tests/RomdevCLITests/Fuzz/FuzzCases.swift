import Foundation

/// The kinds of malformed input, each a pure function of a seed: `FuzzFamily.x.input(seed: n)`
/// rebuilds the case a failure names.
///
/// Every case is malformed by construction (a value no rule accepts, a file with one fault
/// planted), so any exit status other than 1, 64 or 78 is a defect, never bad luck.
enum FuzzFamily: String, CaseIterable, Sendable {
    case arguments
    case configuration
    case calibration
    case recording
    // Control-socket requests go to one running daemon rather than to a command each:
    // `FuzzControlRequest` and `ControlSocketFuzzTests`.

    func input(seed: UInt64) -> FuzzInput {
        var random = FuzzRandom(seed: seed)
        switch self {
        case .arguments: return FuzzArguments.input(&random)
        case .configuration: return FuzzConfiguration.input(&random)
        case .calibration: return FuzzCalibration.input(&random)
        case .recording: return FuzzRecording.input(&random)
        }
    }
}

/// Command lines with one slot filled by a value of the wrong kind.
enum FuzzArguments {
    enum Slot {
        case integer, decimal, seconds, date, pressList, outputPath, directoryPath, storePath, taskID, elementSpec,
            timeZone, word,
            option, choice
    }

    /// Each template's `nil` is the slot; a template without one is malformed as it stands. The store already holds today's check-in, so even a
    /// check-in or a task that slipped through would be refused as a duplicate.
    static let templates: [([String?], Slot)] = [
        (["checkin", "--pain", nil, "--sleep", "7"], .integer),
        (["checkin", "--pain", "5", "--sleep", nil], .decimal),
        (["outcome", "delete", "--task", "checkin", "--occurrence", nil], .integer),
        (["record", "--simulate", "--seconds", nil, "--output", "r.csv"], .seconds),
        (["calibrate", "--simulate", "--seconds", nil, "--calibration", "c.json"], .seconds),
        (["daemon", "--simulate", "--time-scale", nil, "--exit-after", "1"], .decimal),
        (["daemon", "--simulate", "--seed", nil, "--exit-after", "1"], .integer),
        (["daemon", "--simulate", "--press-at", nil, "--exit-after", "1"], .pressList),
        (["daemon", "--simulate", "--start-at", nil, "--exit-after", "1"], .date),
        (["today", "--date", nil], .date),
        (["adherence", "--from", nil, "--to", "2026-06-08"], .date),
        (["events", "--task", "checkin", "--from", "2026-06-07", "--to", nil], .date),
        (["outcomes", "--from", nil], .date),
        (["init", "--start", nil], .date),
        (["init", "--tz", nil], .timeZone),
        (["checkin", "--pain", "5", "--sleep", "7", "--date", nil], .date),
        (["export", "--format", "csv", "--output", nil], .outputPath),
        (["export", "--to", nil], .directoryPath),
        (["report", "--output", nil], .outputPath),
        (["report", "--from", nil, "--to", "2026-06-09"], .date),
        (["replay", "rec.csv", "--trace", nil], .outputPath),
        (["record", "--simulate", "--seconds", "1", "--output", nil], .outputPath),
        (["today", "--store", nil], .storePath),
        (["export", "--format", "json", "--store", nil], .storePath),
        (["task", "add", nil, "--element", "start=2026-06-07,every=1d"], .taskID),
        (["task", "delete", nil], .taskID),
        (["events", "--task", nil, "--from", "2026-06-07", "--to", "2026-06-08"], .taskID),
        (["task", "add", "checkin", "--element", nil], .elementSpec),
        (["today", nil], .word),
        ([nil], .word),
        (["task", nil], .word),
        (["task", "update", "checkin", "--effective", nil], .date),
        (["task", "add", "checkin", "--impacts-adherence", nil, "--element", "start=2026-06-07,every=1d"], .choice),
        (["init", "--limb", nil], .choice),
        (["export", "--format", nil], .choice),
        (["today", "--json", "--json"], .word),
        (["today", "--json", nil], .option),
        (["checkin", "--pain", "5", nil, "--sleep", "7"], .option),
    ]

    static func input(_ random: inout FuzzRandom) -> FuzzInput {
        if random.chance(8) {
            // The store path from the environment, where only the configuration is to blame.
            return FuzzInput(
                arguments: random.pick([["today"], ["tasks", "--json"], ["export", "--format", "json"]]),
                environment: [
                    "ROMDEV_STORE": random.pick([".", "./", "a/", "..", "~", "~/care.sqlite", "sub", "fifo"])
                ])
        }
        let (template, slot) = random.pick(templates)
        var value = self.value(for: slot, &random)
        // Help and version win wherever they appear, and are not errors.
        if ["--help", "-h", "--version"].contains(value) { value = "--no-such-option" }
        return FuzzInput(arguments: template.map { $0 ?? value })
    }

    static func value(for slot: Slot, _ random: inout FuzzRandom) -> String {
        // Garbage can be a fine file name, so output paths get only the listed faults.
        if slot != .outputPath, slot != .directoryPath, random.chance(10) { return random.garbage(maxLength: 40) }
        if random.chance(3) { return random.huge() }
        switch slot {
        case .integer:
            return random.pick([
                "0x\(random.below(256))", "9\(random.digits(20 + random.below(300)))", "-\(1 + random.below(99))",
                "\(random.below(9))e\(random.below(9))", "1.5", "inf", "nan", "", " 5", "5 ", "٥", "1_000", "0b101",
                "99999999999999999999",
            ])
        case .decimal:
            return random.pick([
                "0x1.8p2", "0x\(random.below(256))", "\(random.below(9))e\(random.below(9))", "1e-9", "inf", "-inf",
                "nan", "", ".", "1.2.3", "1,5", "+-1", "--1", "9\(random.digits(400))", "-\(1 + random.below(99))",
                "1e309",
            ])
        case .seconds:
            // Wrong for both record (0.1 to 86400) and calibrate (1 to 60).
            return random.pick(["0", "0.05", "0.09", "-1", "86401", "100000", "1e-9", "0x10", "1e3", "inf", "nan", ""])
        case .date:
            return random.pick([
                "0000-01-01", "1582-10-\(String(format: "%02d", 5 + random.below(10)))", "1000-01-01",
                "2026-13-01", "2026-02-30", "2026-00-10", "2026-06-07T24:00", "2026-06-07T08:60", "2026-06-07T08:00:60",
                "2026-06-07T08:00+19:00", "99999-01-01", "2026-6-7", "2026-06-07 08:00", "２０２６-06-07", "2026-06-07Z08",
                "yesterday", "", "-2026-06-07", "2026-06-07T08", "+2026-06-07",
            ])
        case .pressList:
            return random.pick([
                "\(random.digits(20))s", "18446744074s", "1s+\(random.digits(20))s", "-1s", "1e3s", "0x10s", "nans",
                "infs", "1s,,2s", "2", "2x", "1s+0s", "1s+1s+1s", "604801s", "٣s", "", "1.2.3s",
            ])
        case .outputPath:
            return random.pick([
                "", ".", "./", "..", "a/", "sub", "sub/", "fifo", "/dev/null", "/", "missing/dir/out.csv",
            ])
        case .directoryPath:
            return random.pick(["", "fifo", "/dev/null", "missing/dir", "rec.csv"])
        case .storePath:
            return random.pick([
                "", ".", "./", "..", "a/", "~", "~/care.sqlite", "sub", "fifo", "/", "/dev/null", "missing",
            ])
        case .taskID:
            return random.pick([
                "", String(repeating: "a", count: 65 + random.below(200)), "a b", "a/b", "../x", "é", "id\u{1B}",
                "x,y", "\"q\"",
            ])
        case .elementSpec:
            return mutatedElementSpec(&random)
        case .timeZone:
            return random.pick(["Factory", "Mars/Olympus", "", "../etc/passwd", "europe/nowhere", "UTC+99", "/"])
        case .word:
            return random.pick(["tday", "--", "-", "-x", "help2", random.letters(1 + random.below(10))]) + "\u{1B}"
        case .option:
            return "--zz" + random.letters(1 + random.below(12))
        case .choice:
            return random.pick(["", "yes", "1", "TRUE", "Left", "both", "xml", "csv ", "json\u{1B}"])
        }
    }

    /// A valid element spec with one character deleted, or a character no field accepts inserted.
    static func mutatedElementSpec(_ random: inout FuzzRandom) -> String {
        var spec = Array("start=2026-06-07,every=1d")
        if random.chance(50) {
            spec.remove(at: random.below(spec.count))
        } else {
            spec.insert(random.pick(["#", " ", "\u{1B}", "é", "%", ";"]), at: random.below(spec.count + 1))
        }
        return String(spec)
    }
}

/// Configuration files: valid lines (any line ends, comments, blank lines) plus one fault.
enum FuzzConfiguration {
    static let validLines = [
        "store = /var/lib/romdev/care.sqlite", "i2c_bus = /dev/i2c-1", "i2c_address = 0x68", "sample_rate = 200",
        "led = GPIO27", "buzzer = GPIO22", "button_debounce_ms = 30", "long_press_ms = 1500", "reminder_first = 09:00",
        "reminder_interval = 2h", "reminder_last = 20:00", "quiet_hours = 21:00-08:00", "time_zone = Europe/Berlin",
        "protocol = arc", "require_clock_sync = yes", "thigh_address = none",
    ]

    /// Bad values of keys none of `validLines` sets (so each is the only setting of its key).
    static let badSettings = [
        "button = 4294967296", "button = GPIO 17", "button = 18446744073709551616", "button = 17", "button = GPIO.17",
    ]

    /// Bad values of the keys in `validLines`, replacing that line.
    static let badValues: [String: [String]] = [
        "sample_rate": ["300", "0x10", "-5", "99999999999999999999", "2e2", "abc", ""],
        "i2c_address": ["0x70", "0x6", "0x68x"],
        "thigh_address": ["0x68", "0x70", "no", "0x69 0x69"],
        "time_zone": ["Factory", "Mars/Olympus", "../etc/passwd"],
        "quiet_hours": ["9pm", "08:00-08:00", "25:00-08:00"],
        "reminder_interval": ["0m", "25h", "1h99999999999m", "2 hours", "1e3m"],
        "store": ["care.sqlite", "~/care.sqlite", "./care.sqlite"],
        "require_clock_sync": ["maybe", "1"],
        "protocol": ["ARC", "flexion", "extension,arc"],
        "button_debounce_ms": ["5", "1e2", "0x1E", "99999999999999999999"],
        "long_press_ms": ["-1", "x"],
        "reminder_first": ["24:00", "9:00am"],
    ]

    static func input(_ random: inout FuzzRandom) -> FuzzInput {
        var lines = validLines.filter { _ in random.chance(50) }
        let fault = random.below(9)
        switch fault {
        case 0:
            lines.insert("zz_\(random.letters(1 + random.below(8))) = 1", at: random.below(lines.count + 1))
        case 1:
            let key = random.pick(Array(badValues.keys).sorted())
            lines.removeAll { $0.hasPrefix(key + " ") }
            lines.insert("\(key) = \(random.pick(badValues[key]!))", at: random.below(lines.count + 1))
        case 2:
            lines.insert(random.pick(badSettings), at: random.below(lines.count + 1))
        case 3:
            let line = random.pick(validLines)
            lines += [line, line]
        case 4:
            lines.insert(random.pick(["led GPIO5", "= 5", "led", "led : GPIO5"]), at: random.below(lines.count + 1))
        case 5:
            let control = random.pick(["\u{1B}", "\u{00}", "\u{7F}", "\u{85}", "\u{0B}", "\u{0C}"])
            lines.insert("led = GPIO5\(control)", at: random.below(lines.count + 1))
        default:
            break
        }
        let end = random.pick(["\n", "\r\n", "\r"])
        var text =
            lines.map { random.chance(20) ? "# \(random.letters(10))\(end)\($0)" : $0 }.joined(separator: end) + end
        var bytes = Array(text.utf8)
        switch fault {
        case 6:
            bytes.insert(random.pick([0xFF, 0xC3, 0x80, 0xED]), at: random.below(bytes.count + 1))
        case 7:
            text = "# " + String(repeating: "x", count: 70 * 1024) + end + text
            bytes = Array(text.utf8)
        case 8:
            return FuzzInput(arguments: [
                "daemon", "--check-config", "--config", random.pick(["sub", "fifo", "/dev/null", "missing.conf", "/"]),
            ])
        default:
            break
        }
        return FuzzInput(arguments: ["daemon", "--check-config", "--config", "c.conf"], files: [("c.conf", bytes)])
    }
}

/// Calibration files: a valid one with one fault, or no JSON at all.
enum FuzzCalibration {
    static let valid = """
        {
          "accelerometerOffset" : { "x" : -0.0098, "y" : 0.0257, "z" : -0.0240 },
          "accelerometerScale" : { "x" : 0.9855, "y" : 1.0036, "z" : 0.9942 },
          "gyroBias" : { "x" : -10.706, "y" : -4.944, "z" : 11.945 },
          "gyroScale" : { "x" : 1.0059, "y" : 1.0007, "z" : 0.9967 },
          "mounting" : {
            "hingeAxis" : { "x" : -0.0000186, "y" : -0.99999999, "z" : 0.0000757 },
            "shinAxis" : { "x" : 0.0523269, "y" : 0.0000746, "z" : 0.9986300 }
          },
          "version" : 1
        }

        """

    static func input(_ random: inout FuzzRandom) -> FuzzInput {
        var text = valid
        var bytes: [UInt8]
        switch random.below(8) {
        case 0:
            bytes = Array(text.utf8.prefix(random.below(text.utf8.count - 2)))
        case 1:
            bytes = (0..<random.below(4096)).map { _ in UInt8(random.below(256)) }
        case 2:
            // One number replaced by something no calibration holds.
            let numbers = ["-0.0098", "0.9855", "-10.706", "1.0059", "0.9986300", "0.0257", "1.0036", "11.945"]
            let replacement = random.pick(["\"x\"", "null", "[]", "{}", "1e308", "-1e308", "1e999", "NaN", "true"])
            text = text.replacingOccurrences(of: random.pick(numbers), with: replacement)
            bytes = Array(text.utf8)
        case 3:
            text = text.replacingOccurrences(
                of: "\"version\" : 1",
                with: "\"version\" : \(random.pick(["0", "2", "-1", "\"1\"", "1.5", "99999999999999999999"]))")
            bytes = Array(text.utf8)
        case 4:
            let key = random.pick(["accelerometerOffset", "accelerometerScale", "gyroBias", "gyroScale", "version"])
            text = text.replacingOccurrences(of: "\"\(key)\"", with: "\"\(key)_\"")
            bytes = Array(text.utf8)
        case 5:
            let depth = 100 + random.below(20_000)
            bytes = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        case 6:
            bytes = Array(text.utf8)
            bytes.insert(random.pick([0xFF, 0x00, 0xC3]), at: random.below(bytes.count))
        default:
            return FuzzInput(arguments: [
                "replay", "rec.csv", "--calibration", random.pick(["sub", "fifo", "/dev/null", "missing.json", "/"]),
            ])
        }
        return FuzzInput(arguments: ["replay", "rec.csv", "--calibration", "cal.json"], files: [("cal.json", bytes)])
    }
}

/// Recordings: plausible samples of a still or moving knee, with one fault.
enum FuzzRecording {
    static let header = "time_s,accel_x_g,accel_y_g,accel_z_g,gyro_x_dps,gyro_y_dps,gyro_z_dps,temp_c"

    /// `count` rows at 200 Hz of a shank swinging slowly: gravity's direction turns, about 1 g.
    static func rows(_ count: Int, _ random: inout FuzzRandom) -> [[String]] {
        (0..<count).map { index in
            let angle = Double(index) * 0.002 + Double(random.below(100)) * 1e-5
            let time = Double(index) * 0.005
            return [
                String(format: "%.3f", time), String(format: "%.5f", sin(angle)), "0.00000",
                String(format: "%.5f", cos(angle)),
                "0.0000", "22.9183", "0.0000", "31.50",
            ]
        }
    }

    static func input(_ random: inout FuzzRandom) -> FuzzInput {
        var rows = rows(20 + random.below(200), &random)
        var header = header
        let row = random.below(rows.count)
        let column = random.below(8)
        switch random.below(10) {
        case 0:
            rows[row][column] = random.pick(["nan", "inf", "-inf", "1e309", "", "x", "1,5", "--1", "0x", "1e"])
        case 1:
            let limits = ["1e10", "16.5", "-17", "1e308", "2001", "-2500", "1e308", "200", "-61"]
            rows[row][max(1, column)] = limits[max(1, column)]
            if column == 0 { rows[row][0] = "1e10" }
        case 2:
            if random.chance(50) { rows[row].removeLast() } else { rows[row].append("0") }
        case 3:
            let earlier = row == 0 ? 1 : row - 1
            rows[row][0] = rows[earlier][0]
            if row == 0 { rows[1][0] = rows[0][0] }
        case 4:
            header = random.pick([
                "", "time,ax", header + ",extra", header.uppercased(), "\u{FEFF}" + header,
                header.replacingOccurrences(of: ",", with: ";"),
            ])
        case 5:
            for index in rows.indices {
                rows[index][1] = "0"
                rows[index][2] = "0"
                rows[index][3] = "0"
            }
        case 6:
            rows[row][column] = random.garbage(maxLength: 12)
        case 7:
            rows = []
        case 8:
            var bytes = Array((header + "\n" + rows.map { $0.joined(separator: ",") }.joined(separator: "\n")).utf8)
            bytes.insert(random.pick([0xFF, 0xC3, 0xED]), at: 1 + random.below(bytes.count - 1))
            return FuzzInput(arguments: ["replay", "r.csv"], files: [("r.csv", bytes)])
        default:
            return FuzzInput(arguments: ["replay", random.pick(["sub", "fifo", "/dev/null", "missing.csv", "", "/"])])
        }
        let end = random.pick(["\n", "\r\n"])
        let text = ([header] + rows.map { $0.joined(separator: ",") }).joined(separator: end) + end
        return FuzzInput(
            arguments: ["replay", "r.csv"] + (random.chance(30) ? ["--json"] : []), files: [("r.csv", Array(text.utf8))]
        )
    }
}

/// Control-socket requests that are malformed, or name no request, and so must change nothing.
/// None is a well-formed `measure`, `calibrate` or `export-done`, which would start a session.
enum FuzzControlRequest {
    static func bytes(seed: UInt64) -> [UInt8] {
        var random = FuzzRandom(seed: seed)
        let end = random.pick(["\n", "\r\n", ""])
        switch random.below(9) {
        case 0:
            return (0..<(1 + random.below(300))).map { _ in UInt8(random.below(256)) } + Array(end.utf8)
        case 1:
            let whole = random.pick([
                #"{"request":"measure","limb":"left"}"#, #"{"request":"calibrate"}"#,
                #"{"request":"export-done","files":["a.csv"]}"#,
            ])
            return Array(whole.utf8.prefix(1 + random.below(whole.utf8.count - 1))) + Array(end.utf8)
        case 2:
            return Array(
                random.pick([
                    #"{"request":5}"#, #"{"request":null}"#, #"{"request":"measure","limb":5}"#,
                    #"{"request":"measure","limb":"middle"}"#, #"{"request":"measure","unscheduled":"yes"}"#,
                    #"{"request":"export-done","files":5}"#, #"{"request":"export-done","files":[1,2]}"#,
                    #"{"request":"CALIBRATE"}"#, #"{"request":"status "}"#, #"{"request":"st\u0000atus"}"#,
                    #"{"request":"reboot","request":"status"}"#, #"{"request":"status","request":"reboot"}"#, #"{}"#,
                    #"[]"#, #""status""#, "1", "null", "true", "",
                    #"{"request":"measure","limb":"left","unscheduled":true"#,
                ]).utf8) + Array(end.utf8)
        case 3:
            return Array(#"{"request":"\#(random.letters(1 + random.below(20)))"}"#.utf8) + Array(end.utf8)
        case 4:
            let depth = 100 + random.below(3000)
            return Array((String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
                + Array(end.utf8)
        case 5:
            return Array(
                String(repeating: random.pick(["x", " ", "{", "\""]), count: 10_000 + random.below(1_000_000)).utf8)
        case 6:
            return Array((#"{"request":"nope"}"# + "\n" + random.garbage(maxLength: 50) + "\n").utf8)
        case 7:
            return Array(#"{"request":""#.utf8) + [random.pick([0xFF, 0xC3, 0x00, 0x1B, 0x0A])] + Array(#""}"#.utf8)
                + Array(end.utf8)
        default:
            return Array(random.pick(["", "\n", "   \r\n", "\u{FEFF}{\"request\":\"status\"}\n"]).utf8)
        }
    }
}
