import Foundation
import GPIO
import LinuxSystem

extension ApplianceConfiguration {
    /// Reads the configuration file at `path`.
    ///
    /// - Parameter mustExist: When false (the default path), a missing file means every default;
    ///   when true (a path given on the command line), it is an error, so a typo cannot silently
    ///   run the defaults.
    /// - Throws: `ConfigurationError` naming the file, and the line and key when one is at fault.
    public static func load(path: String, mustExist: Bool) throws(ConfigurationError) -> ApplianceConfiguration {
        let bytes: [UInt8]
        do {
            bytes = try FilePath(path).readRegularFile(limit: sizeLimit)
        } catch .cannotOpen(.noSuchFileOrDirectory) where !mustExist {
            return ApplianceConfiguration()
        } catch .cannotOpen(.noSuchFileOrDirectory) {
            throw ConfigurationError(path: path, message: "cannot read the configuration file: no such file")
        } catch .cannotOpen(let errno) {
            throw ConfigurationError(path: path, message: "cannot read the configuration file: \(errno)")
        } catch {
            throw ConfigurationError(path: path, message: "cannot use the configuration file: \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(path: path, message: "the file is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// The largest configuration file read; the default one, every key commented, is about 4 KB.
    public static let sizeLimit = 64 * 1024

    /// Parses the text of a configuration file: `key = value` lines; `#` starts a comment; blank
    /// lines are ignored; each key at most once; keys left out keep their defaults.
    ///
    /// A line ends with LF, CRLF (a file saved on Windows) or a lone CR (classic Mac OS), so a
    /// carriage return never reaches a value. Any other control character is refused.
    ///
    /// - Parameter path: The file name errors report.
    public static func parse(_ text: String, path: String) throws(ConfigurationError) -> ApplianceConfiguration {
        var draft = ConfigurationDraft()
        var lineOfKey: [String: Int] = [:]
        let keys = Dictionary(uniqueKeysWithValues: ConfigurationKey.all.map { ($0.name, $0) })
        // "\r\n" is one Character, so the split must name it as well as "\n" and "\r".
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (index, raw) in lines.enumerated() {
            let lineNumber = index + 1
            if let control = raw.unicodeScalars.first(where: { $0.properties.generalCategory == .control && $0 != "\t" }
            ) {
                throw ConfigurationError(
                    path: path, line: lineNumber,
                    message: "control character U+\(String(format: "%04X", control.value)) in the line")
            }
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            if content.isEmpty { continue }
            guard let equals = content.firstIndex(of: "=") else {
                throw ConfigurationError(
                    path: path, line: lineNumber,
                    message: "expected 'key = value', got '\(TerminalText.excerpt(content))'")
            }
            let name = content[..<equals].trimmingCharacters(in: .whitespaces)
            let value = content[content.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard let key = keys[name] else {
                let known = ConfigurationKey.all.map(\.name).joined(separator: ", ")
                throw ConfigurationError(
                    path: path, line: lineNumber, key: name.isEmpty ? nil : TerminalText.excerpt(name),
                    message: name.isEmpty ? "missing key before '='" : "unknown key; the keys are \(known)")
            }
            if let earlier = lineOfKey[name] {
                throw ConfigurationError(
                    path: path, line: lineNumber, key: name, message: "already set on line \(earlier)")
            }
            lineOfKey[name] = lineNumber
            // No key takes more than a path (PATH_MAX); a longer value could only be echoed back.
            guard value.utf8.count < Int(PATH_MAX) else {
                throw ConfigurationError(
                    path: path, line: lineNumber, key: name, message: "the value is longer than \(PATH_MAX - 1) bytes")
            }
            guard !value.isEmpty else {
                throw ConfigurationError(
                    path: path, line: lineNumber, key: name,
                    message: "missing value; leave the key out (or comment it) for the default")
            }
            do {
                try key.read(value, &draft)
            } catch {
                throw ConfigurationError(
                    path: path, line: lineNumber, key: name,
                    message: "\(error.message), got '\(TerminalText.excerpt(value))'")
            }
        }
        return try draft.finish(path: path, lineOfKey: lineOfKey)
    }

    /// The default configuration file, every key with its comment, as `romdev daemon
    /// --print-config` prints it and packages install it.
    public static var defaultFileText: String {
        ApplianceConfiguration().fileText(withComments: true)
    }

    /// This configuration as a file that `parse` reads back to it: every key, its value, and
    /// (with comments) the header and each key's explanation. A key chosen automatically is
    /// written commented out, with an example value.
    public func fileText(withComments: Bool) -> String {
        var text = ""
        if withComments {
            text += """
                # romdev daemon configuration (\(Self.defaultPath)).
                #
                # One 'key = value' per line; '#' starts a comment. A key left out keeps the
                # default shown here, and a missing file means all defaults; a key shown
                # commented out is chosen automatically unless set. After a change:
                # 'romdev daemon --check-config', then 'systemctl restart romdev'.

                """
        }
        for key in ConfigurationKey.all {
            if withComments {
                text += "\n"
                for line in key.comment.split(separator: "\n") {
                    text += "# \(line)\n"
                }
            }
            if let value = key.render(self) {
                text += "\(key.name) = \(value)\n"
            } else if withComments {
                text += "#\(key.name) = \(key.example ?? "")\n"
            } else {
                text += "# \(key.name): automatic\n"
            }
        }
        return text
    }
}

extension ConfigurationDraft {
    /// Checks what needs the whole file (lines on `gpio_chip`, the reminder rule, no line used
    /// twice) and builds the configuration.
    func finish(path: String, lineOfKey: [String: Int]) throws(ConfigurationError) -> ApplianceConfiguration {
        var result = configuration
        func failure(_ key: String, _ message: String) -> ConfigurationError {
            ConfigurationError(path: path, line: lineOfKey[key], key: key, message: message)
        }
        func selector(_ key: String, _ value: LineValue) throws(ConfigurationError) -> GPIOLineSelector {
            switch value {
            case .name(let name):
                return .name(name)
            case .offset(let offset):
                guard let chip = result.gpio.chip else {
                    throw failure(
                        key, "a line offset (\(offset)) needs gpio_chip; or give the line name, e.g. GPIO\(offset)")
                }
                return .offset(offset, chip: chip)
            }
        }
        if let thigh = result.thighAddress, thigh == result.i2cAddress {
            let key = lineOfKey["thigh_address"] != nil ? "thigh_address" : "i2c_address"
            throw failure(
                key,
                "the shank's and the thigh's sensors are both at \(String(format: "0x%02x", thigh)); "
                    + "strap the shank's AD0 low (i2c_address = 0x68)")
        }
        if let value = pendingLines["button"] { result.gpio.button = try selector("button", value) }
        if let value = pendingLines["led"] { result.gpio.led = try selector("led", value) }
        if let value = pendingLines["buzzer"] { result.gpio.buzzer = .line(try selector("buzzer", value)) }

        var used: [(key: String, selector: GPIOLineSelector)] = [
            ("button", result.gpio.button), ("led", result.gpio.led),
        ]
        if case .line(let buzzer) = result.gpio.buzzer { used.append(("buzzer", buzzer)) }
        for (index, line) in used.enumerated() {
            if let other = used[..<index].first(where: { $0.selector == line.selector }) {
                let key = lineOfKey[line.key] != nil ? line.key : other.key
                throw failure(key, "\(line.key) and \(other.key) are both on \(line.selector)")
            }
        }

        do {
            result.gpio.buttonTiming = try ButtonTiming(
                debounceMilliseconds: debounceMilliseconds
                    ?? Int(result.gpio.buttonTiming.debounceNanoseconds / 1_000_000),
                longPressMilliseconds: longPressMilliseconds
                    ?? Int(result.gpio.buttonTiming.longPressNanoseconds / 1_000_000))
        } catch {
            // The keys' own range checks come first, so this only repeats them.
            throw ConfigurationError(path: path, message: "\(error)")
        }

        let first = reminderFirst ?? result.reminders.first
        let last = reminderLast ?? result.reminders.last
        guard first <= last else {
            let key = reminderLast != nil ? "reminder_last" : "reminder_first"
            throw failure(key, "reminder_first (\(first)) is later than reminder_last (\(last))")
        }
        result.reminders = ReminderTimes(
            first: first, intervalMinutes: reminderInterval ?? result.reminders.intervalMinutes, last: last)
        return result
    }
}
